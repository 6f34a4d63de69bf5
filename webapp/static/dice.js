/* Die faces drawn with CSS (no images), shared by the game page. */
(function () {
  'use strict';
  var PIPS = {1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

  /** A die face element for `value` (1-6); `tag` "button" makes it tappable. */
  window.dieFace = function (value, tag) {
    var face = document.createElement(tag || 'span');
    face.className = 'die';
    face.dataset.value = String(value);
    if (tag === 'button') face.type = 'button';
    face.setAttribute('aria-label', String(value));
    var on = PIPS[value] || [];
    for (var i = 0; i < 9; i++) {
      var pip = document.createElement('i');
      if (on.indexOf(i) >= 0) pip.className = 'on';
      face.appendChild(pip);
    }
    return face;
  };
})();
