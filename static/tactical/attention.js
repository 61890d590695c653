// A hidden tab calls its player back when his side's turn begins: the tab's title changes and, if the browser
// allows it, a desktop notification and a short tone (Web Audio, no file). Nothing needs a push service: the
// battle socket already brings the new turn.

let lastTurn = null;
let seen = false;
let savedTitle = null;
let audio = null;

function restore() {
  if (savedTitle !== null && !document.hidden) {
    document.title = savedTitle;
    savedTitle = null;
  }
}

// Browsers allow sound and the permission prompt only after a gesture: the first click on the page.
function onFirstGesture() {
  document.removeEventListener("pointerdown", onFirstGesture);
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (Context) audio = new Context();
  } catch (e) { audio = null; }
  if (window.Notification && Notification.permission === "default") {
    try { Notification.requestPermission(); } catch (e) { /* an old browser */ }
  }
}

function tone() {
  if (!audio) return;
  try {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.4);
  } catch (e) { /* no sound */ }
}

function call(title, body) {
  if (savedTitle === null) savedTitle = document.title;
  document.title = `${title} · ${savedTitle}`;
  if (window.Notification && Notification.permission === "granted") {
    try { new Notification(title, { body, tag: "limes-turn" }); } catch (e) { /* notifications refused */ }
  }
  tone();
}

// Called with every new board state: when the turn (round and side) changes to one of the viewer's sides
// and the tab is hidden, the player is called. The first state seen only sets the baseline.
export function attention(state, sides, t) {
  if (!state) return;
  const turn = state.phase === "move" ? `${state.round}:${state.side}` : null;
  const began = seen && turn !== null && turn !== lastTurn && sides.includes(state.side);
  seen = true;
  lastTurn = turn;
  if (began && document.hidden) {
    call(t.attention_title, (t.attention_body || "").replace("{round}", state.round));
  }
}

document.addEventListener("pointerdown", onFirstGesture);
document.addEventListener("visibilitychange", restore);
