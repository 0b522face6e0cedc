// Loads DaemonLab's Go core (main.wasm) and hands the page to it.
//
// The module is fetched and compiled from the moment the page's head is read, while the rest of
// the page and the deferred scripts (wasm_exec.js, the editor) load; it runs once the document is
// parsed and those scripts have run.
"use strict";
(() => {
  const compiled = WebAssembly.compileStreaming(fetch("main.wasm"));
  compiled.catch(() => {}); // reported below, once the page can show it
  document.addEventListener("DOMContentLoaded", async () => {
    const banner = document.getElementById("banner");
    try {
      const go = new Go();
      const instance = await WebAssembly.instantiate(await compiled, go.importObject);
      go.run(instance);
    } catch (err) {
      banner.textContent = "DaemonLab could not load its simulator: " + err.message;
      banner.classList.remove("hidden");
    }
  });
})();
