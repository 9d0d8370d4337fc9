// Draws the report's charts with Chart.js from the data Plumb embedded in the page, then marks each
// canvas with what it drew (data-points: points laid out inside the plot area; data-ink: pixels of
// the series' colours there), so a headless browser can check that no chart is empty.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("plumb-data").textContent);
  var NINES_MAX = data.ninesMaxX;

  // 1 -> p0, 10 -> p90, 100 -> p99, 1000 -> p99.9, ... and the maximum past six nines.
  function ninesLabel(x) {
    if (x >= NINES_MAX) return "max";
    var decade = Math.round(Math.log10(x));
    if (decade <= 0) return "p0";
    if (decade === 1) return "p90";
    return "p99" + (decade > 2 ? "." + "9".repeat(decade - 2) : "");
  }

  // Latency ticks as people write them: 0.05, 1, 20, 500, 1,000 (not 0.0500 or 1.0000).
  function latencyTick(value) {
    var mantissa = value / Math.pow(10, Math.floor(Math.log10(value) + 1e-9));
    if ([1, 2, 5].indexOf(Math.round(mantissa)) < 0) return "";
    return Number(value.toPrecision(2)).toLocaleString("en", { maximumFractionDigits: 6 });
  }

  function percentileLabel(p) {
    return p >= 100 ? "max" : "p" + p.toFixed(6).replace(/\.?0+$/, "");
  }

  function rgb(hex) {
    return [1, 3, 5].map(function (i) { return parseInt(hex.substr(i, 2), 16); });
  }

  // Counts pixels in the plot area whose colour is close to one of the series' colours.
  function inkPixels(chart, colors) {
    // A line along an edge (a backlog of zero) is half outside the plot area: look 3 px beyond it.
    var area = chart.chartArea, ratio = chart.currentDevicePixelRatio || 1, margin = 3;
    var x = Math.max(0, Math.floor((area.left - margin) * ratio));
    var y = Math.max(0, Math.floor((area.top - margin) * ratio));
    var w = Math.min(chart.canvas.width - x, Math.ceil((area.right - area.left + 2 * margin) * ratio));
    var h = Math.min(chart.canvas.height - y, Math.ceil((area.bottom - area.top + 2 * margin) * ratio));
    if (w <= 0 || h <= 0) return 0;
    var pixels = chart.ctx.getImageData(x, y, w, h).data, targets = colors.map(rgb), ink = 0;
    for (var i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3] < 200) continue;
      for (var t = 0; t < targets.length; t++) {
        var c = targets[t];
        if (Math.abs(pixels[i] - c[0]) + Math.abs(pixels[i + 1] - c[1]) + Math.abs(pixels[i + 2] - c[2]) < 40) {
          ink++;
          break;
        }
      }
    }
    return ink;
  }

  function pointsInside(chart) {
    var area = chart.chartArea, count = 0;
    chart.data.datasets.forEach(function (dataset, i) {
      chart.getDatasetMeta(i).data.forEach(function (element) {
        if (!element.skip && isFinite(element.x) && isFinite(element.y) &&
            element.x >= area.left - 1 && element.x <= area.right + 1 &&
            element.y >= area.top - 1 && element.y <= area.bottom + 1) {
          count++;
        }
      });
    });
    return count;
  }

  function addCanvas(container, spec) {
    var figure = document.createElement("figure");
    figure.className = "chart";
    var caption = document.createElement("figcaption");
    caption.textContent = spec.title;
    if (spec.note) {
      var note = document.createElement("span");
      note.className = "note";
      note.textContent = " " + spec.note;
      caption.appendChild(note);
    }
    var holder = document.createElement("div");
    holder.className = "canvas-holder";
    var canvas = document.createElement("canvas");
    canvas.setAttribute("data-chart", spec.id);
    holder.appendChild(canvas);
    figure.appendChild(caption);
    figure.appendChild(holder);
    container.appendChild(figure);
    return canvas;
  }

  function datasets(spec, logY) {
    return spec.series.map(function (series) {
      var result = data.results[series.result];
      return {
        label: result.label,
        borderColor: result.color,
        backgroundColor: result.color,
        borderWidth: 2,
        pointRadius: 0,
        pointHoverRadius: 4,
        tension: 0,
        data: series.points
          .filter(function (p) { return !logY || p[1] > 0; })
          .map(function (p) { return { x: p[0], y: p[1], p: p[2] }; })
      };
    });
  }

  var drawn = 0, failed = 0;
  function draw(container, spec, config) {
    var canvas = addCanvas(container, spec);
    try {
      var chart = new Chart(canvas, config);
      var colors = spec.series.map(function (s) { return data.results[s.result].color; });
      canvas.setAttribute("data-points", String(pointsInside(chart)));
      canvas.setAttribute("data-ink", String(inkPixels(chart, colors)));
      drawn++;
      return chart;
    } catch (e) {
      canvas.setAttribute("data-chart-error", String(e));
      failed++;
      return null;
    }
  }

  // What every chart shares: drawn at once, filling its box, the nearest point on hover, the
  // legend below.
  Chart.defaults.animation = false;
  Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.interaction.mode = "nearest";
  Chart.defaults.interaction.intersect = false;
  Chart.defaults.plugins.legend.position = "bottom";
  var decades = [];
  for (var x = 1; x <= NINES_MAX; x *= 10) decades.push(x);

  var ninesCharts = [];
  data.nines.forEach(function (spec) {
    var chart = draw(document.getElementById("nines-charts"), spec, {
      type: "line",
      data: { datasets: datasets(spec, true) },
      options: {
        scales: {
          x: {
            type: "logarithmic", min: 1, max: NINES_MAX,
            title: { display: true, text: "percentile (each nine one decade further right)" },
            afterBuildTicks: function (axis) { axis.ticks = decades.map(function (v) { return { value: v }; }); },
            ticks: { callback: function (value) { return ninesLabel(value); } }
          },
          y: {
            type: "logarithmic",
            title: { display: true, text: "latency (ms, log scale)" },
            ticks: {
              callback: function (value) {
                return this.type === "logarithmic" ? latencyTick(value) : Number(value).toLocaleString("en");
              }
            }
          }
        },
        plugins: {
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? percentileLabel(items[0].raw.p) : ""; },
              label: function (item) { return item.dataset.label + ": " + item.raw.y.toPrecision(4) + " ms"; }
            }
          }
        }
      }
    });
    if (chart) ninesCharts.push(chart);
  });

  // Vertical lines where faults were applied (solid) and undone (dashed), in each result's colour.
  var faultMarkers = {
    id: "faultMarkers",
    afterDatasetsDraw: function (chart) {
      var x = chart.scales.x;
      var area = chart.chartArea;
      var ctx = chart.ctx;
      (data.faults || []).forEach(function (fault) {
        [["applied", []], ["undone", [6, 4]]].forEach(function (edge) {
          var seconds = fault[edge[0]];
          if (typeof seconds !== "number") return;
          var px = x.getPixelForValue(seconds);
          if (px < area.left || px > area.right) return;
          ctx.save();
          ctx.strokeStyle = data.results[fault.result].color;
          ctx.setLineDash(edge[1]);
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(px, area.top);
          ctx.lineTo(px, area.bottom);
          ctx.stroke();
          if (edge[0] === "applied") {
            ctx.fillStyle = data.results[fault.result].color;
            ctx.font = "11px system-ui, sans-serif";
            ctx.fillText(fault.label, px + 3, area.top + 11);
          }
          ctx.restore();
        });
      });
    }
  };

  data.timelines.forEach(function (spec) {
    draw(document.getElementById("timeline-charts"), spec, {
      type: "line",
      plugins: [faultMarkers],
      data: { datasets: datasets(spec, false) },
      options: {
        scales: {
          x: { type: "linear", min: 0, title: { display: true, text: "seconds into the measured phase" } },
          y: { beginAtZero: true, title: { display: true, text: spec.unit } }
        }
      }
    });
  });

  var toggle = document.getElementById("latency-scale");
  if (toggle) {
    toggle.addEventListener("change", function () {
      ninesCharts.forEach(function (chart) {
        chart.options.scales.y.type = toggle.checked ? "logarithmic" : "linear";
        chart.options.scales.y.title.text = toggle.checked ? "latency (ms, log scale)" : "latency (ms)";
        chart.update();
      });
    });
  }
  document.body.setAttribute("data-charts-drawn", String(drawn));
  document.body.setAttribute("data-charts-failed", String(failed));
})();
