// Live progress on the jobs page: while a job is queued or running, its status, progress bar and message are read
// from /jobs/<id>/status.json every second and written into the page; a change of status is announced through the
// page's live region. Without this script the page shows the state it was loaded in (reload to see more).
document.addEventListener('DOMContentLoaded', function () {
  var announcer = document.getElementById('jobs-announcer');
  var jobs = Array.prototype.slice.call(document.querySelectorAll('[data-job]'));
  if (!jobs.length || !window.fetch) return;
  var live = function (el) {
    var status = el.getAttribute('data-status');
    return status === 'queued' || status === 'running';
  };
  var part = function (el, name) {
    return el.querySelector('[data-field="' + name + '"]');
  };

  function update(el, job) {
    var before = el.getAttribute('data-status');
    el.setAttribute('data-status', job.status);
    part(el, 'status').textContent = job.status_label;
    part(el, 'message').textContent = job.message;
    part(el, 'progress').value = job.percent;
    part(el, 'progress').textContent = job.percent + '%';
    part(el, 'percent').textContent = job.percent + '%';
    if (job.result) part(el, 'result').textContent = job.result;
    else if (!live(el)) part(el, 'result').textContent = 'none';
    if (job.download_url) part(el, 'download').hidden = false;
    if (!live(el) && part(el, 'cancel')) part(el, 'cancel').hidden = true;
    if (before !== job.status && announcer) {
      var title = el.querySelector('.job-title');
      announcer.textContent = (title ? title.textContent + ': ' : '') + job.status_label + '. ' + job.message;
    }
  }

  function poll() {
    var pending = jobs.filter(live);
    if (!pending.length) return;
    Promise.all(
      pending.map(function (el) {
        var url = '/jobs/' + encodeURIComponent(el.getAttribute('data-job')) + '/status.json';
        return fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
          .then(function (response) {
            return response.ok ? response.json() : null;
          })
          .then(
            function (job) {
              if (job) update(el, job);
            },
            function () {},
          );
      }),
    ).then(function () {
      setTimeout(poll, 1000);
    });
  }
  setTimeout(poll, 1000);
});
