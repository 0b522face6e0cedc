// Loads DaemonLab's Go core (main.wasm) and hands the page to it.
"use strict";
(async () => {
  const banner = document.getElementById("banner");
  try {
    const go = new Go();
    const response = fetch("main.wasm");
    const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
    go.run(instance);
  } catch (err) {
    banner.textContent = "DaemonLab could not load its simulator: " + err.message;
    banner.classList.remove("hidden");
  }
})();
