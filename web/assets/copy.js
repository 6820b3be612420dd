// Buttons with data-copy="<element id>" copy that element's text; they start hidden (the hidden attribute) and are
// shown only where this script runs. The result is announced in the button's own text.
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source || !navigator.clipboard) return;
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(source.textContent.trim()).then(
        function () { button.textContent = 'Copied'; },
        function () { button.textContent = 'Copy failed: select the text instead'; },
      );
      setTimeout(function () { button.textContent = label; }, 4000);
    });
  });
});
