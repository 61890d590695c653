// On a narrow screen: the clock and the selected unit's facing buttons join the action bar at the foot (board.css keeps it on
// screen with the clock), and the log and the orders start folded.

const NARROW = window.matchMedia("(max-width: 700px)");
const turnButtons = document.getElementById("turn-buttons");
const card = document.getElementById("unit-card");
const bar = document.getElementById("actions");
const clock = document.getElementById("status-clock");
const status = document.getElementById("board-status");

function place() {
  if (!turnButtons || !bar || !card) return;
  if (NARROW.matches && turnButtons.parentElement !== bar) bar.insertBefore(turnButtons, bar.querySelector(".action-row"));
  if (!NARROW.matches && turnButtons.parentElement !== card) card.appendChild(turnButtons);
  // The clock rides in the bar too: a 40-second turn is read at the foot, beside End turn.
  if (NARROW.matches && clock.parentElement !== bar) bar.insertBefore(clock, bar.firstChild);
  if (!NARROW.matches && clock.parentElement !== status) status.insertBefore(clock, document.getElementById("status-conn"));
}

place();
NARROW.addEventListener("change", place);
if (NARROW.matches) {
  for (const id of ["log-fold", "orders-fold"]) {
    const fold = document.getElementById(id);
    if (fold) fold.open = false;
  }
}
