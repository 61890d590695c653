// The setup map: a click on a province opens its form (the page again with ?province=<code>).
document.addEventListener("DOMContentLoaded", () => {
  const frame = document.querySelector("[data-setup-map]");
  if (!frame) return;
  frame.addEventListener("click", (event) => {
    const province = event.target.closest("g.province[data-code]");
    if (!province) return;
    const url = new URL(window.location.href);
    url.searchParams.set("province", province.dataset.code);
    url.hash = "province-form";
    window.location.assign(url.toString());
  });
});
