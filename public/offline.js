// public/offline.html's words in the trader's language (the browser's first one the product speaks), and its retry:
// a reload of the page the trader asked for, also done by itself when the network comes back. A classic script of its
// own, as the pages' CSP allows no inline script.
(function () {
  var WORDS = {
    en: {
      title: "You're offline",
      body: "Peerex can't reach the network right now. Your trades, the coins in escrow and your chats are kept safe on the server, but a trade's payment window keeps running while you're away.",
      retry: 'Try again',
    },
    es: {
      title: 'Sin conexión',
      body: 'Peerex no logra conectarse a la red en este momento. Tus operaciones, las monedas en custodia y tus chats siguen a salvo en el servidor, pero el plazo de pago de una operación sigue corriendo mientras no estás.',
      retry: 'Reintentar',
    },
    'pt-BR': {
      title: 'Você está sem conexão',
      body: 'O Peerex não consegue acessar a rede agora. Suas negociações, as moedas em custódia e suas conversas continuam seguras no servidor, mas o prazo de pagamento de uma negociação continua correndo enquanto você está fora.',
      retry: 'Tentar de novo',
    },
    fr: {
      title: 'Vous êtes hors ligne',
      body: 'Peerex n’arrive pas à joindre le réseau pour le moment. Vos échanges, les cryptos en séquestre et vos discussions restent en sécurité sur le serveur, mais le délai de paiement d’un échange continue de courir pendant votre absence.',
      retry: 'Réessayer',
    },
    ar: {
      title: 'أنت غير متصل بالإنترنت',
      body: 'تعذّر على Peerex الوصول إلى الشبكة الآن. صفقاتك والعملات المحتجزة في الضمان ومحادثاتك محفوظة بأمان على الخادم، لكن مهلة الدفع في أي صفقة تظل سارية أثناء غيابك.',
      retry: 'إعادة المحاولة',
    },
  };
  var RIGHT_TO_LEFT = { ar: true };

  function languageOf(tag) {
    var lower = String(tag).toLowerCase();
    if (lower === 'pt' || lower.indexOf('pt-') === 0) return 'pt-BR';
    var base = lower.split('-')[0];
    return WORDS[base] ? base : null;
  }
  // The language the trader chose in the app (src/boot/locale.js keeps it under `locale`) comes first.
  var chosen = null;
  try {
    chosen = localStorage.getItem('locale');
  } catch (error) {
    // Storage refused (a privacy mode): the browser's languages decide.
  }
  var browserLanguages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  var wanted = chosen ? [chosen].concat(Array.prototype.slice.call(browserLanguages)) : browserLanguages;
  var language = 'en';
  for (var i = 0; i < wanted.length; i++) {
    var found = languageOf(wanted[i]);
    if (found) {
      language = found;
      break;
    }
  }
  var words = WORDS[language];
  document.documentElement.lang = language;
  document.documentElement.dir = RIGHT_TO_LEFT[language] ? 'rtl' : 'ltr';
  document.title = 'Peerex — ' + words.title;
  document.querySelectorAll('[data-text]').forEach(function (element) {
    element.textContent = words[element.getAttribute('data-text')];
  });

  var retry = function () {
    location.reload();
  };
  document.querySelector('[data-text="retry"]').addEventListener('click', retry);
  window.addEventListener('online', retry);
})();
