// A prerendered page's loader (vite.config.ts routePages): the page is already on screen from its HTML, so its
// scripts (data-entry, data-preloads) start once it has painted, not while the stylesheet is still arriving: on a slow
// network a hundred-odd kilobytes of script fetched beside the stylesheet delay the first paint by seconds. A classic
// script (document.currentScript), since a module script cannot see its own element.
(function () {
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
  var entry = script.getAttribute('data-entry');
  var preloads = (script.getAttribute('data-preloads') || '').split(' ').filter(Boolean);
  var started = false;
  function start() {
    if (started) return;
    started = true;
    preloads.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
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
})();
