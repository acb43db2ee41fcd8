// SvgLineChart: a small, dependency-free line chart rendered as inline SVG
// (for the self-contained HTML report): axes with ticks, optional log y
// axis, vertical markers (phase boundaries), a legend, and one polyline
// (with point markers) per series. Text is XML-escaped; nothing refers to
// anything outside the document.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spindle::replay {

enum class LineStyle : uint8_t { kSolid, kDashed, kDotted };

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); y < 0: missing
  LineStyle style = LineStyle::kSolid;
};

struct ChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = false;
  std::vector<double> markers;  // x positions of dashed vertical lines
  std::vector<double> x_ticks;  // empty: chosen from the data
  std::vector<ChartSeries> series;
  int width = 720;
  int height = 320;
};

std::string RenderLineChart(const ChartSpec& spec);

}  // namespace spindle::replay
