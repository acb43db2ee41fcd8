#include "replay/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/markup_escape.h"

namespace spindle::replay {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string Fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

std::string Label(double v) {
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e6) {
    std::snprintf(buf, sizeof(buf), "%gM", v / 1e6);
  } else if (a >= 1e4) {
    std::snprintf(buf, sizeof(buf), "%gk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof(buf), "%g", v);
  }
  return buf;
}

// "Nice" linear ticks covering [lo, hi].
std::vector<double> LinearTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  }
  return ticks;
}

}  // namespace

std::string RenderLineChart(const ChartSpec& spec) {
  const double w = spec.width;
  const double h = spec.height;
  const double left = 70;
  const double right = 190;  // legend
  const double top = 30;
  const double bottom = 45;
  const double pw = w - left - right;
  const double ph = h - top - bottom;

  // Data ranges.
  double x0 = 0;
  double x1 = 1;
  double y0 = spec.log_y ? 1 : 0;
  double y1 = 1;
  bool any = false;
  double min_pos = 0;
  for (const ChartSeries& s : spec.series) {
    for (const auto& [x, y] : s.points) {
      if (y < 0 || !std::isfinite(y) || !std::isfinite(x)) continue;
      if (!any) {
        x0 = x1 = x;
        y1 = y;
        any = true;
      }
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y1 = std::max(y1, y);
      if (y > 0 && (min_pos == 0 || y < min_pos)) min_pos = y;
    }
  }
  for (double m : spec.markers) {
    x0 = std::min(x0, m);
    x1 = std::max(x1, m);
  }
  if (!(x1 > x0)) x1 = x0 + 1;
  std::vector<double> yticks;
  if (spec.log_y) {
    const double lo = std::pow(10, std::floor(std::log10(min_pos > 0 ? min_pos : 1)));
    const double hi = std::pow(10, std::ceil(std::log10(std::max(y1, lo * 10))));
    y0 = lo;
    y1 = hi;
    for (double t = lo; t <= hi * 1.0001; t *= 10) yticks.push_back(t);
  } else {
    if (!(y1 > 0)) y1 = 1;
    yticks = LinearTicks(0, y1 * 1.05, 5);
    y1 = std::max(y1 * 1.05, yticks.back());
  }
  const auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  const auto py = [&](double y) {
    if (spec.log_y) {
      const double v = std::log10(std::max(y, y0));
      return top + ph - (v - std::log10(y0)) / (std::log10(y1) - std::log10(y0)) * ph;
    }
    return top + ph - (y - y0) / (y1 - y0) * ph;
  };

  std::string o;
  o += "<svg width=\"" + Fmt(w) + "\" height=\"" + Fmt(h) + "\" viewBox=\"0 0 " + Fmt(w) + " " +
       Fmt(h) + "\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">";
  o += "<title>" + EscapeMarkup(spec.title) + "</title>";
  o +=
      "<rect x=\"0\" y=\"0\" width=\"" + Fmt(w) + "\" height=\"" + Fmt(h) + "\" fill=\"#ffffff\"/>";
  o += "<text x=\"" + Fmt(left) + "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" +
       EscapeMarkup(spec.title) + "</text>";
  // Grid and y ticks.
  for (double t : yticks) {
    const double y = py(t);
    o += "<line x1=\"" + Fmt(left) + "\" y1=\"" + Fmt(y) + "\" x2=\"" + Fmt(left + pw) +
         "\" y2=\"" + Fmt(y) + "\" stroke=\"#e0e0e0\"/>";
    o += "<text x=\"" + Fmt(left - 6) + "\" y=\"" + Fmt(y + 4) + "\" text-anchor=\"end\">" +
         EscapeMarkup(Label(t)) + "</text>";
  }
  for (double t : spec.x_ticks.empty() ? LinearTicks(x0, x1, 8) : spec.x_ticks) {
    const double x = px(t);
    o += "<line x1=\"" + Fmt(x) + "\" y1=\"" + Fmt(top + ph) + "\" x2=\"" + Fmt(x) + "\" y2=\"" +
         Fmt(top + ph + 4) + "\" stroke=\"#333333\"/>";
    o += "<text x=\"" + Fmt(x) + "\" y=\"" + Fmt(top + ph + 16) + "\" text-anchor=\"middle\">" +
         EscapeMarkup(Label(t)) + "</text>";
  }
  for (double m : spec.markers) {
    const double x = px(m);
    o += "<line x1=\"" + Fmt(x) + "\" y1=\"" + Fmt(top) + "\" x2=\"" + Fmt(x) + "\" y2=\"" +
         Fmt(top + ph) + "\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>";
  }
  // Axes.
  o += "<line x1=\"" + Fmt(left) + "\" y1=\"" + Fmt(top + ph) + "\" x2=\"" + Fmt(left + pw) +
       "\" y2=\"" + Fmt(top + ph) + "\" stroke=\"#333333\"/>";
  o += "<line x1=\"" + Fmt(left) + "\" y1=\"" + Fmt(top) + "\" x2=\"" + Fmt(left) + "\" y2=\"" +
       Fmt(top + ph) + "\" stroke=\"#333333\"/>";
  o += "<text x=\"" + Fmt(left + pw / 2) + "\" y=\"" + Fmt(h - 8) + "\" text-anchor=\"middle\">" +
       EscapeMarkup(spec.x_label) + "</text>";
  o += "<text x=\"14\" y=\"" + Fmt(top + ph / 2) +
       "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " + Fmt(top + ph / 2) + ")\">" +
       EscapeMarkup(spec.y_label + (spec.log_y ? " (log)" : "")) + "</text>";
  // Series.
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const ChartSeries& s = spec.series[i];
    const char* color = kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))];
    const std::string dash = s.style == LineStyle::kDashed   ? "\" stroke-dasharray=\"6 3"
                             : s.style == LineStyle::kDotted ? "\" stroke-dasharray=\"2 2"
                                                             : "";
    std::string pts;
    std::string marks;
    for (const auto& [x, y] : s.points) {
      if (y < 0 || !std::isfinite(y) || !std::isfinite(x)) {
        if (!pts.empty()) {
          o += "<polyline fill=\"none\" stroke=\"" + std::string(color) + dash +
               "\" stroke-width=\"1.6\" points=\"" + pts + "\"/>";
          pts.clear();
        }
        continue;
      }
      const std::string p = Fmt(px(x)) + "," + Fmt(py(y));
      pts += (pts.empty() ? "" : " ") + p;
      if (s.points.size() <= 40) {
        marks += "<circle cx=\"" + Fmt(px(x)) + "\" cy=\"" + Fmt(py(y)) + "\" r=\"2.5\" fill=\"" +
                 color + "\"/>";
      }
    }
    if (!pts.empty()) {
      o += "<polyline fill=\"none\" stroke=\"" + std::string(color) + dash +
           "\" stroke-width=\"1.6\" points=\"" + pts + "\"/>";
    }
    o += marks;
    const double ly = top + 8 + 16 * static_cast<double>(i);
    o += "<line x1=\"" + Fmt(left + pw + 12) + "\" y1=\"" + Fmt(ly) + "\" x2=\"" +
         Fmt(left + pw + 32) + "\" y2=\"" + Fmt(ly) + "\" stroke=\"" + color + dash +
         "\" stroke-width=\"2\"/>";
    o += "<text x=\"" + Fmt(left + pw + 36) + "\" y=\"" + Fmt(ly + 4) + "\">" +
         EscapeMarkup(s.name) + "</text>";
  }
  o += "</svg>";
  return o;
}

}  // namespace spindle::replay
