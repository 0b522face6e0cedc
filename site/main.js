// Loads DaemonLab's Go core (main.wasm) and hands the page to it.
//
// The module is fetched and compiled from the moment the page's head is read, while the rest of
// the page and wasm_exec.js load; it runs once the document is parsed. The code editor
// (editor.js, CodeMirror) loads once the Go side has drawn the page and marked it ready: until
// then the plain textarea is the editor, and starting CodeMirror, then handing it the manifest,
// does not hold up the page's first paint.
"use strict";
(() => {
  const compiled = WebAssembly.compileStreaming(fetch("main.wasm"));
  compiled.catch(() => {}); // reported below, once the page can show it
  new MutationObserver((_, observer) => {
    if (document.documentElement.getAttribute("data-ready") === "true") {
      observer.disconnect();
      const editor = document.createElement("script");
      editor.src = "editor.js";
      document.head.append(editor);
    }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ready"] });
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
