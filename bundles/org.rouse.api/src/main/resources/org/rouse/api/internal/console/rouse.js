/*
 * The Rouse Web Console page: polls data.json (beside this script) every second and draws the last minute as SVG.
 * No library and no external resource. window.rouseConsole exposes the poll count and the last data (for tests).
 */
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var WIDTH = 900, HEIGHT = 180, LEFT = 60, RIGHT = 10, TOP = 10, BOTTOM = 20;
  var script = document.currentScript;
  var dataUrl = script.src.replace(/rouse\.js(\?.*)?$/, 'data.json');
  var state = window.rouseConsole = { polls: 0, errors: 0, last: null };

  function byId(id) { return document.getElementById(id); }

  function text(value, digits) {
    if (value === null || value === undefined) { return '–'; }
    if (typeof value === 'number') { return value.toFixed(digits === undefined ? 0 : digits); }
    return String(value);
  }

  function cell(row, value) {
    var td = document.createElement('td');
    td.textContent = value;
    row.appendChild(td);
  }

  function figures(id, pairs) {
    var body = byId(id);
    body.textContent = '';
    var row = document.createElement('tr');
    pairs.forEach(function (pair) {
      cell(row, pair[0] + ':');
      var td = document.createElement('td');
      var b = document.createElement('b');
      b.textContent = pair[1];
      td.appendChild(b);
      row.appendChild(td);
    });
    body.appendChild(row);
  }

  function rows(id, list, columns) {
    var body = byId(id);
    body.textContent = '';
    list.forEach(function (item) {
      var row = document.createElement('tr');
      columns.forEach(function (column) { cell(row, column(item)); });
      body.appendChild(row);
    });
  }

  function node(name, attributes, content) {
    var element = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    if (content !== undefined) { element.textContent = content; }
    return element;
  }

  /* lines: [{name, color, values}] over times (ms since the epoch); x spans the last `seconds` up to `now`. */
  function chart(svgId, legendId, now, seconds, times, lines, unit) {
    var svg = byId(svgId);
    svg.textContent = '';
    var max = 0;
    lines.forEach(function (line) {
      line.values.forEach(function (v) { if (v !== null && v > max) { max = v; } });
    });
    max = max > 0 ? max * 1.1 : 1;
    var from = now - seconds * 1000;
    function x(t) { return LEFT + (WIDTH - LEFT - RIGHT) * Math.max(0, t - from) / (seconds * 1000); }
    function y(v) { return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * v / max; }
    svg.appendChild(node('line', { x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH - RIGHT, y2: HEIGHT - BOTTOM, stroke: '#999' }));
    svg.appendChild(node('line', { x1: LEFT, y1: TOP, x2: LEFT, y2: HEIGHT - BOTTOM, stroke: '#999' }));
    svg.appendChild(node('text', { x: 2, y: TOP + 10, 'font-size': 11 }, text(max, max < 10 ? 2 : 0) + ' ' + unit));
    svg.appendChild(node('text', { x: 2, y: HEIGHT - BOTTOM, 'font-size': 11 }, '0'));
    svg.appendChild(node('text', { x: LEFT, y: HEIGHT - 4, 'font-size': 11 }, '-' + seconds + ' s'));
    svg.appendChild(node('text', { x: WIDTH - RIGHT - 24, y: HEIGHT - 4, 'font-size': 11 }, 'now'));
    var legend = byId(legendId);
    legend.textContent = '';
    lines.forEach(function (line) {
      var points = [];
      line.values.forEach(function (v, i) {
        if (v !== null && v !== undefined) { points.push(x(times[i]).toFixed(1) + ',' + y(v).toFixed(1)); }
      });
      svg.appendChild(node('polyline', {
        'class': 'rouse-line', 'data-series': line.name, 'data-points': points.length,
        points: points.join(' '), fill: 'none', stroke: line.color, 'stroke-width': 2
      }));
      var last = null;
      line.values.forEach(function (v) { if (v !== null && v !== undefined) { last = v; } });
      var item = document.createElement('span');
      item.style.color = line.color;
      item.textContent = '\u25A0 ' + line.name + ' ' + text(last, unit === 'ms' ? 3 : 0) + ' ' + unit;
      legend.appendChild(item);
    });
  }

  function series(service, kind, name) {
    var list = service && service.series && service.series[kind] && service.series[kind][name];
    return list || [];
  }

  function render(data) {
    var seconds = data.seconds || 60;
    var timer = data.services.timer, selector = data.services.selector, lock = data.services.lock;
    if (timer) {
      var minute = timer.latenessLastMinute || {};
      figures('rouse-timer-figures', [
        ['engine', timer.engine], ['pending', text(timer.gauges.pending)],
        ['fired/s', text(timer.rates.fired)], ['owners', text(timer.gauges.owners)],
        ['lateness last minute p50', text(minute.p50, 3) + ' ms'], ['p99', text(minute.p99, 3) + ' ms'],
        ['p99.9', text(minute.p999, 3) + ' ms'], ['max', text(minute.max, 3) + ' ms']
      ]);
      chart('rouse-timer-chart', 'rouse-timer-legend', data.time, seconds, timer.series.t, [
        { name: 'p50', color: '#2a7', values: timer.series.latenessP50 || [] },
        { name: 'p99', color: '#e80', values: timer.series.latenessP99 || [] },
        { name: 'max', color: '#c22', values: timer.series.latenessMax || [] }
      ], 'ms');
    }
    var eventLines = [], eventTimes = [];
    if (timer) {
      eventTimes = timer.series.t;
      eventLines.push({ name: 'timers fired', color: '#27c', values: series(timer, 'rates', 'fired') });
    }
    if (selector) {
      eventTimes = eventTimes.length ? eventTimes : selector.series.t;
      eventLines.push({ name: 'upcalls', color: '#a3c', values: series(selector, 'rates', 'upcalls') });
    }
    if (lock) {
      eventTimes = eventTimes.length ? eventTimes : lock.series.t;
      eventLines.push({ name: 'lock acquisitions', color: '#888', values: series(lock, 'rates', 'acquisitions') });
    }
    chart('rouse-events-chart', 'rouse-events-legend', data.time, seconds, eventTimes, eventLines, '/s');
    if (selector) {
      figures('rouse-selector-figures', [
        ['engine', selector.engine], ['pool threads', text(selector.gauges.poolThreads)],
        ['queued', text(selector.gauges.poolQueued)], ['registrations', text(selector.gauges.registrations)],
        ['select cycles/s', text(selector.rates.selectCycles)], ['wake-ups/s', text(selector.rates.wakeupsRequested)],
        ['written/s', text(selector.rates.wakeupsWritten)], ['upcalls/s', text(selector.rates.upcalls)]
      ]);
      chart('rouse-selector-chart', 'rouse-selector-legend', data.time, seconds, selector.series.t, [
        { name: 'select cycles', color: '#27c', values: series(selector, 'rates', 'selectCycles') },
        { name: 'wake-ups requested', color: '#e80', values: series(selector, 'rates', 'wakeupsRequested') },
        { name: 'wake-ups written', color: '#c22', values: series(selector, 'rates', 'wakeupsWritten') },
        { name: 'pool threads', color: '#2a7', values: series(selector, 'gauges', 'poolThreads') }
      ], '/s');
    }
    if (lock) {
      figures('rouse-lock-figures', [
        ['engine', lock.engine], ['locks', text(lock.gauges.locks)],
        ['acquisitions/s', text(lock.rates.acquisitions)], ['contended/s', text(lock.rates.contended)]
      ]);
      rows('rouse-lock-top', lock.top, [
        function (l) { return l.name; }, function (l) { return l.strategy; },
        function (l) { return text(l.contended); }, function (l) { return text(l.acquired); },
        function (l) { return text(l.waitP99Micros, 1); }
      ]);
    }
    rows('rouse-swap-rows', data.swaps, [
      function (s) { return new Date(s.time).toLocaleTimeString(); }, function (s) { return s.service; },
      function (s) { return s.from; }, function (s) { return s.to; },
      function (s) { return text(s.pauseMillis, 3); }, function (s) { return text(s.moved); }
    ]);
  }

  function poll() {
    fetch(dataUrl, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) { throw new Error('HTTP ' + response.status); }
        return response.json();
      })
      .then(function (data) {
        state.polls++;
        state.last = data;
        render(data);
        byId('rouse-status').textContent = 'updated ' + new Date(data.time).toLocaleTimeString();
      })
      .catch(function (e) {
        state.errors++;
        byId('rouse-status').textContent = 'no data: ' + e.message;
      })
      .then(function () { setTimeout(poll, 1000); });
  }

  poll();
}());
