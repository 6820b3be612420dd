// Progressive enhancement only: every page works without this file.
// A form that came back with errors: its summary takes the focus (autofocus does not reach a non-control in every
// browser), so keyboard and screen-reader users start at the list of problems.
document.addEventListener('DOMContentLoaded', function () {
  var summary = document.querySelector('[data-error-summary]');
  if (summary && document.activeElement !== summary) summary.focus();
});
