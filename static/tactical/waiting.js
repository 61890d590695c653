// A battle not on the board yet, or being prepared: ask where it stands and show the board once it is open.
(() => {
  const box = document.getElementById("board-waiting");
  if (!box) return;
  const url = box.dataset.stageUrl;
  const initial = box.dataset.stage;
  async function check() {
    try {
      const answer = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (answer.ok) {
        const body = await answer.json();
        if (body.stage !== initial) {
          window.location.reload();
          return;
        }
      }
    } catch {
      // offline for a moment: the next check tries again
    }
    setTimeout(check, document.hidden ? 10000 : 2500);
  }
  setTimeout(check, 2500);
})();
