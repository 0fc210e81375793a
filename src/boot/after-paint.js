// A prerendered page's loader (vite.config.ts routePages): the page is already on screen from its HTML, so its
// scripts (data-entry, data-preloads) start once it has painted, not while the stylesheet is still arriving: on a slow
// network a hundred-odd kilobytes of script fetched beside the stylesheet delay the first paint by seconds. A classic
// script (document.currentScript), since a module script cannot see its own element.
//
// Started again as a dedicated worker by a page that holds a session (below), it loads ICU's locale data: the first
// number, date or relative-time formatter a page creates loads it, tens of milliseconds at once on a desktop CPU (four
// times that on the phone Lighthouse's mobile preset assumes), and a signed-in page creates its first while drawing
// the trader's figures. The data belongs to the page's process, which its workers share: loaded here, off the main
// thread while the app's scripts arrive, the page's own formatters (src/ui/format/) find it ready.
if (typeof document === 'undefined') {
  [self.navigator.language, 'en-US'].forEach(function (locale) {
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(1);
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
    new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'day');
  });
  self.close();
} else (function () {
  // A prerendered signed-in page shows only in a browser that holds a session (src/index.css); another visitor
  // sees nothing until the app has sent them to /login, as without prerendering.
  try {
    if (localStorage.getItem('authToken')) {
      document.documentElement.setAttribute('data-stored-session', '');
      // The trader's name and initial where the page drawn at build time left them a slot (src/prerender.tsx), as
      // text: the stored user is whatever this browser's storage holds.
      var user = JSON.parse(localStorage.getItem('user') || 'null');
      var name = user && typeof user.username === 'string' ? user.username : '';
      document.querySelectorAll('[data-stored-user="username"]').forEach(function (slot) {
        slot.textContent = name;
      });
      document.querySelectorAll('[data-stored-user="initial"]').forEach(function (slot) {
        slot.textContent = name.charAt(0).toUpperCase() || 'U';
      });
    }
  } catch (error) {
    // Storage refused (a privacy mode), or what it holds is not a user: the app decides, once it runs.
  }
  var script = document.currentScript;
  // A signed-in page will format the trader's amounts and dates: the locale data loads in a worker meanwhile (above).
  if (document.documentElement.hasAttribute('data-stored-session')) new Worker(script.src);
  var entry = script.getAttribute('data-entry');
  var preloads = (script.getAttribute('data-preloads') || '').split(' ').filter(Boolean);
  var started = false;
  function start() {
    if (started) return;
    started = true;
    preload(0);
  }
  // The preloads a dozen per task, then the entry: each starts a request, a fraction of a millisecond of the main
  // thread, and a signed-in page preloads three dozen scripts, which in one task took 10 ms on this machine (40 at a
  // phone's CPU).
  function preload(from) {
    preloads.slice(from, from + 12).forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    if (from + 12 < preloads.length) return void setTimeout(preload, 0, from + 12);
    var app = document.createElement('script');
    app.type = 'module';
    app.crossOrigin = '';
    app.src = entry;
    document.head.appendChild(app);
  }
  // After the next frame is painted; a tab opened in the background paints no frame until shown, so a timer too.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 250);
  // The service worker (src/sw/service-worker.ts): web push, and the installed app's offline page, which it keeps
  // only once registered, so every page registers it rather than only a trader who turns push on. After the page has
  // loaded and a second more, so its download and install never compete with the page's own scripts.
  if ('serviceWorker' in navigator && window.isSecureContext) {
    window.addEventListener('load', function () {
      setTimeout(function () {
        navigator.serviceWorker.register('/service-worker.js').catch(function () {
          // Refused (a private window, a browser setting): the site works as before, without the offline page.
        });
      }, 1000);
    });
  }
})();
