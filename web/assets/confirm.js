// Forms with data-confirm="question" ask before they are sent (unlinking an identity, revoking a token). Without
// scripts they are sent at once: the action behind them is reversible or reported on the next page.
document.addEventListener('submit', function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  var question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
