// The language of the page, chosen before its first paint (docs/i18n.md "Before the first paint"): a classic script
// in the head, loaded like the stylesheet (render-blocking, a few hundred bytes), since the pages' CSP allows no
// inline script. It picks as src/i18n/locales.ts `pickLocale` does (tests/ui/locale.test.ts runs both on the same
// inputs): the choice remembered on this device, else the browser's first language the app speaks, else English.
// It sets `<html lang dir>` at once, so an Arabic page is laid out right to left from its first frame; for any
// language but English, whose words the page drawn at build time holds, it marks the document so that page stays
// hidden (src/index.css) until the app has drawn it in that language (src/i18n/document.ts lifts the mark); and it
// preloads that language's catalog (data-catalogs, written by vite.config.ts routePages), which the app loads first.
(function () {
  var LOCALES = ['en', 'es', 'pt-BR', 'fr', 'ar'];
  function isLocale(value) {
    return value === 'pseudo' || LOCALES.indexOf(value) >= 0;
  }
  function pick(stored, languages) {
    if (isLocale(stored)) return stored;
    for (var i = 0; i < languages.length; i++) {
      var tag = String(languages[i]).toLowerCase();
      for (var j = 0; j < LOCALES.length; j++) if (LOCALES[j].toLowerCase() === tag) return LOCALES[j];
      var base = tag.split('-')[0];
      for (var k = 0; k < LOCALES.length; k++) if (LOCALES[k].toLowerCase().split('-')[0] === base) return LOCALES[k];
    }
    return 'en';
  }
  var stored = null;
  try {
    stored = localStorage.getItem('locale');
  } catch (error) {
    // Storage refused (a privacy mode): the browser's languages decide.
  }
  var locale = pick(stored, navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']);
  var root = document.documentElement;
  root.lang = locale === 'pseudo' ? 'en-XA' : locale;
  root.dir = locale === 'ar' ? 'rtl' : 'ltr';
  if (locale !== 'en') root.setAttribute('data-locale-pending', '');
  var script = document.currentScript;
  var catalogs = ((script && script.getAttribute('data-catalogs')) || '').split(' ');
  for (var c = 0; c < catalogs.length; c++) {
    var pair = catalogs[c].split('=');
    if (pair[0] !== locale || !pair[1]) continue;
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = pair[1];
    document.head.appendChild(link);
  }
})();
