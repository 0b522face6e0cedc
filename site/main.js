// Loads DaemonLab's Go core (main.wasm) and hands the page to it.
//
// The module is fetched and compiled from the moment the page's head is read, while the rest of
// the page and wasm_exec.js load; it runs once the document is parsed. The code editor
// (editor.js, CodeMirror) loads once the Go side has drawn the page and marked it ready: until
// then the plain textarea is the editor, and starting CodeMirror, then handing it the manifest,
// does not hold up the page's first paint.
//
// Go recovers its own panics (wasm/recover.go), but not the end of its runtime. When the program
// has stopped, the page says so (stop):
//
//  1. it has exited: go.run's promise settles (a fatal error such as running out of memory, a
//     stack overflow, os.Exit);
//  2. it has trapped: a WebAssembly.RuntimeError escapes from it, into an event listener, a timer,
//     a promise or go.run itself; the program is then marked exited, so that nothing calls into
//     it again (not even the Go side's save on pagehide, which would save a broken state).
//
// Then the page is marked data-stopped, everything but the banner #stopped is inert (greyed,
// out of the keyboard's and the mouse's reach, out of the accessibility tree), and the banner's
// Reload button has the focus: a reload opens the session as last autosaved. The banner's words
// are in the page's language: the Go side translates them with the rest (data-i18n). The errors
// of calls into the exited program ("Go program has already exited") are not reported again.
//
// Every asset is fetched through self.daemonlabAsset(name), which maps its plain name to the URL
// it is served at: the <meta name="daemonlab-assets"> map of content-hashed names `make dist`
// writes, or the name itself where there is none (`make build`'s site/).
//
// The data the first screen does not need (kubectl explain's documents, the lessons: see
// playground.AssetMsg) comes after main.wasm: self.daemonlabData(name) is a promise of an
// asset's bytes, fetched at low priority once main.wasm's are in, so that it never competes with
// them; it fails with the reason (offline, "HTTP 404") when the asset does not arrive. The Go
// side asks for what it needs as it starts, each once.
//
// The start page comes painted (`make build` draws the start model's cluster, clock and what is
// due into the HTML with the page's own Go view code: wasm/prerender): a first visit sees the
// real cluster before main.wasm has arrived, and the Go side's first render draws the same
// markup in its place. Before the first paint, this script (in the head: the page's policy
// allows no inline script) decides by the rules the painter wrote (meta daemonlab-paint, the
// Go side's own: playground.Keeper.Opening, PickLang, IsLink) whether this visit opens on that
// start page, and marks the root element:
//
//  1. data-paint="shown": nothing saved that changes the first screen (a session, lesson
//     progress), no link in the fragment (in embed.html, no fragment at all: it configures the
//     frame), and the language the learner chose, else the first of
//     navigator.languages the page speaks, is the painted one: the painted page shows;
//  2. data-paint="hidden": else. The style sheet keeps the page's layout but shows none of it
//     (visibility: hidden: a placeholder of the same size), so that no English sandbox flashes
//     before, say, the Chinese page or the learner's own session; the Go side draws it;
//  3. no data-paint: the page is not painted (the template served as it is).
//
// data-lang is that language: the starting state's words (#starting, painted in every
// language) show in it.
//
// Until the Go side marks the page ready (data-ready) the page is starting: the style sheet
// shows "starting…" and a busy cursor over the controls, and the work area is aria-busy. A
// click on a button meanwhile, and Enter at the prompt (whose text stays as typed), are not lost:
// they are queued and replayed, in order, on the elements the Go side has drawn in their place
// (found by id or data-key) once the page is ready.
//
// The share link's Copy button (#copy-share) copies the link (#share-url), or the code to embed
// (#embed-code), whichever the notice shows, to the clipboard and then says data-copied; where
// the page may not write the clipboard, it selects the text and says data-select (press Ctrl/⌘ +
// C). Go writes both texts, in the page's language.
//
// embed.html (<html data-embed>) is the page in a frame of another's: it posts its content's
// height to the page that frames it, {type: "daemonlab:height", height} in CSS pixels, at first
// and whenever it changes, for the host's script (the snippet of "Embed this") to size the
// frame; and it loads the code editor only where it shows the editor (data-editor, set by Go).
//
// Offline: in a build of `make dist` (its pages have the asset map), served over http(s), the page registers the service worker
// (sw.js) once it is ready. When a new version has been installed and waits, the notice
// #update says so; its Reload has the new version take over (skipWaiting) and reloads once it
// controls the page. Until then the page runs on its own version's assets. A page whose worker
// was replaced from another tab shows the same notice, and its Reload just reloads.
"use strict";
(() => {
  const offline = () => {
    const workers = navigator.serviceWorker;
    const notice = document.getElementById("update");
    let asked = false, waiting = null;
    const offer = (worker) => {
      waiting = worker;
      notice?.classList.remove("hidden");
    };
    document.getElementById("update-reload")?.addEventListener("click", () => {
      if (!waiting) {
        location.reload();
        return;
      }
      asked = true;
      waiting.postMessage("skipWaiting");
    });
    let controlled = Boolean(workers.controller);
    workers.addEventListener("controllerchange", () => {
      if (asked) {
        location.reload();
      } else if (controlled) {
        offer(null); // another tab took the new version: this one reloads to follow
      }
      controlled = true;
    });
    workers.register("sw.js").then((registration) => {
      const watch = (worker) => worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && workers.controller) {
          offer(worker);
        }
      });
      if (registration.waiting && workers.controller) {
        offer(registration.waiting);
      }
      if (registration.installing) {
        watch(registration.installing);
      }
      registration.addEventListener("updatefound", () => watch(registration.installing));
    }, (err) => console.warn("DaemonLab works online only here:", err));
  };
  const root = document.documentElement;
  const rules = (() => {
    try {
      return JSON.parse(document.querySelector('meta[name="daemonlab-paint"]').content);
    } catch {
      return null; // not painted
    }
  })();
  if (rules) {
    const stored = (key) => {
      try {
        return localStorage.getItem(key);
      } catch {
        return null; // storage off: nothing saved
      }
    };
    let lang = stored(rules.langKey);
    if (!rules.langs.includes(lang)) {
      lang = rules.langs[0];
      for (const preferred of navigator.languages || []) {
        const tag = preferred.toLowerCase();
        const known = Object.keys(rules.tags).find((t) => tag === t || tag.startsWith(t + "-"));
        if (known) {
          lang = rules.tags[known];
          break;
        }
      }
    }
    const hash = location.hash.slice(1);
    // embed.html opens what its whole fragment configures (a lesson, a session, a language).
    const linked = root.hasAttribute("data-embed") ? hash !== "" : rules.links.some((k) => hash.startsWith(k));
    const same = lang === rules.lang && !linked && rules.stored.every((k) => stored(k) === null);
    root.setAttribute("data-lang", lang);
    root.setAttribute("data-paint", same ? "shown" : "hidden");
  }
  const queued = [];
  const starting = () => !root.hasAttribute("data-ready") && !root.hasAttribute("data-stopped");
  document.addEventListener("click", (event) => {
    const button = starting() && event.target.closest("button");
    const selector = button && (button.id ? "#" + CSS.escape(button.id) : button.dataset.key ? `[data-key="${CSS.escape(button.dataset.key)}"]` : "");
    if (selector) {
      queued.push(() => document.querySelector(selector)?.click());
    }
  }, true);
  document.addEventListener("keydown", (event) => {
    if (starting() && event.key === "Enter" && event.target.id === "prompt") {
      event.preventDefault();
      queued.push(() => document.getElementById("prompt")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })));
    }
  }, true);
  if (root.hasAttribute("data-embed") && window.parent !== window) {
    let posted = 0;
    new ResizeObserver(() => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height !== posted) {
        posted = height;
        window.parent.postMessage({ type: "daemonlab:height", height }, "*");
      }
    }).observe(root);
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest("#copy-share");
    if (!button) {
      return;
    }
    const link = document.querySelector("#share-url:not(.hidden), #embed-code:not(.hidden)");
    const select = () => {
      link.focus();
      link.select();
      button.textContent = button.dataset.select;
    };
    if (!navigator.clipboard) {
      select();
      return;
    }
    navigator.clipboard.writeText(link.value).then(() => { button.textContent = button.dataset.copied; }, select);
  });
  if (!self.daemonlabAsset) {
    const meta = document.querySelector('meta[name="daemonlab-assets"]');
    const urls = meta ? JSON.parse(meta.content) : {};
    self.daemonlabAsset = (name) => urls[name] ?? name;
  }
  const compiled = WebAssembly.compileStreaming(fetch(daemonlabAsset("main.wasm")));
  compiled.catch(() => {}); // reported below, once the page can show it
  const wasmIn = compiled.then(() => {}, () => {});
  const data = new Map();
  self.daemonlabData = (name) => {
    if (!data.has(name)) {
      data.set(name, wasmIn.then(() => fetch(daemonlabAsset(name), { priority: "low" })).then((response) => {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.arrayBuffer();
      }));
    }
    return data.get(name);
  };
  new MutationObserver((_, observer) => {
    if (root.getAttribute("data-ready") === "true") {
      observer.disconnect();
      document.getElementById("work")?.removeAttribute("aria-busy");
      for (const replay of queued.splice(0)) {
        replay();
      }
      if (!root.hasAttribute("data-embed") || root.hasAttribute("data-editor")) {
        const editor = document.createElement("script");
        editor.src = daemonlabAsset("editor.js");
        document.head.append(editor);
      }
      if (document.querySelector('meta[name="daemonlab-assets"]') && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
        offline();
      }
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
  document.addEventListener("DOMContentLoaded", async () => {
    const banner = document.getElementById("banner");
    let go, instance;
    try {
      go = new Go();
      instance = await WebAssembly.instantiate(await compiled, go.importObject);
    } catch (err) {
      banner.textContent = "DaemonLab could not load its simulator: " + err.message;
      banner.classList.remove("hidden");
      return;
    }
    const stopped = document.getElementById("stopped");
    const reload = document.getElementById("reload");
    reload.addEventListener("click", () => location.reload());
    const stop = () => {
      go.exited = true;
      if (document.documentElement.hasAttribute("data-stopped")) {
        return;
      }
      document.documentElement.setAttribute("data-stopped", "true");
      for (const e of document.body.children) {
        e.inert = e !== stopped;
      }
      stopped.classList.remove("hidden");
      reload.focus();
    };
    const escaped = (err, event) => {
      if (err instanceof WebAssembly.RuntimeError) {
        stop();
      } else if (go.exited && err instanceof Error && err.message === "Go program has already exited") {
        event.preventDefault();
      }
    };
    addEventListener("error", (e) => escaped(e.error, e));
    addEventListener("unhandledrejection", (e) => escaped(e.reason, e));
    go.run(instance).then(stop, (err) => {
      console.error(err);
      stop();
    });
  });
})();
