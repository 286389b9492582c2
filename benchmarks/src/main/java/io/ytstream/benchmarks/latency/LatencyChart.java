package io.ytstream.benchmarks.latency;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An SVG chart of latency distributions, one panel per configuration: latency (log scale, ms) over
 * percentile, the x axis stretched towards the tail (0, 90, 99, 99.9, 99.99 % equally spaced) so
 * that the batch-boundary gap is visible next to the median. No library: plain SVG text.
 */
final class LatencyChart {

  private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#d62728", "#2ca02c", "#9467bd"};
  private static final int WIDTH = 720;
  private static final int PANEL = 280;
  private static final int LEFT = 60;
  private static final int RIGHT = 210;
  private static final int TOP = 30;
  private static final int BOTTOM = 40;
  private static final double MAX_NINES = 4;

  private LatencyChart() {}

  /** One panel: a title and the stats of each variant, in legend order. */
  record Panel(String title, Map<Variant, LatencyStats> stats) {}

  static String svg(List<Panel> panels) {
    StringBuilder s = new StringBuilder();
    int height = PANEL * Math.max(1, panels.size());
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">\n"
                + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            WIDTH,
            height));
    for (int i = 0; i < panels.size(); i++) {
      panel(s, panels.get(i), i * PANEL);
    }
    return s.append("</svg>\n").toString();
  }

  private static void panel(StringBuilder s, Panel p, int y0) {
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = PANEL - TOP - BOTTOM;
    double maxMs = 1;
    double minMs = 1;
    for (LatencyStats st : p.stats().values()) {
      if (st.delivered > 0) {
        maxMs = Math.max(maxMs, st.quantileMs(1));
        minMs = Math.min(minMs, Math.max(0.01, st.quantileMs(0)));
      }
    }
    double lo = Math.floor(Math.log10(minMs));
    double hi = Math.ceil(Math.log10(maxMs));
    if (hi <= lo) {
      hi = lo + 1;
    }
    text(s, LEFT, y0 + 18, p.title(), "bold");
    // y grid: decades
    for (double d = lo; d <= hi; d++) {
      double y = y0 + TOP + plotH * (1 - (d - lo) / (hi - lo));
      line(s, LEFT, y, LEFT + plotW, y, "#ddd");
      text(s, 4, y + 4, label(Math.pow(10, d)) + " ms", "normal");
    }
    // x grid: nines
    String[] names = {"0%", "90%", "99%", "99.9%", "99.99%"};
    for (int k = 0; k <= MAX_NINES; k++) {
      double x = LEFT + plotW * k / MAX_NINES;
      line(s, x, y0 + TOP, x, y0 + TOP + plotH, "#ddd");
      text(s, x - 12, y0 + TOP + plotH + 14, names[k], "normal");
    }
    text(s, LEFT + plotW / 2.0 - 30, y0 + PANEL - 8, "percentile of rows", "normal");
    int c = 0;
    for (Map.Entry<Variant, LatencyStats> e : p.stats().entrySet()) {
      String colour = COLOURS[c % COLOURS.length];
      LatencyStats st = e.getValue();
      StringBuilder pts = new StringBuilder();
      if (st.delivered > 0) {
        int steps = 400;
        for (int i = 0; i <= steps; i++) {
          double nines = MAX_NINES * i / steps;
          double q = 1 - Math.pow(10, -nines);
          if (q > 1 - 1.0 / st.delivered && i > 0) {
            break;
          }
          point(pts, LEFT + plotW * nines / MAX_NINES, st.quantileMs(q), lo, hi, y0, plotH);
        }
        double lastNines = Math.min(MAX_NINES, Math.log10(Math.max(1, st.delivered)));
        point(pts, LEFT + plotW * lastNines / MAX_NINES, st.quantileMs(1), lo, hi, y0, plotH);
      }
      s.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"%s\"/>\n",
              colour,
              pts.toString().trim()));
      double ly = y0 + TOP + 14 + 30 * c;
      line(s, LEFT + plotW + 10, ly - 4, LEFT + plotW + 30, ly - 4, colour);
      text(s, LEFT + plotW + 34, ly, e.getKey().key, "bold");
      text(
          s,
          LEFT + plotW + 34,
          ly + 13,
          String.format(
              Locale.ROOT, "p50 %s  p99 %s  max %s", label(st.p50), label(st.p99), label(st.max)),
          "normal");
      c++;
    }
  }

  private static void point(
      StringBuilder pts, double x, double ms, double lo, double hi, int y0, int plotH) {
    double v = Math.log10(Math.max(Math.pow(10, lo), ms));
    double y = y0 + TOP + plotH * (1 - (v - lo) / (hi - lo));
    pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
  }

  static String label(double ms) {
    if (Double.isNaN(ms)) {
      return "-";
    }
    if (ms >= 100) {
      return String.format(Locale.ROOT, "%.0f", ms);
    }
    if (ms >= 1) {
      return String.format(Locale.ROOT, "%.1f", ms);
    }
    return String.format(Locale.ROOT, "%.2f", ms);
  }

  private static void line(StringBuilder s, double x1, double y1, double x2, double y2, String c) {
    s.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
            x1,
            y1,
            x2,
            y2,
            c));
  }

  private static void text(StringBuilder s, double x, double y, String t, String weight) {
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"%s\">%s</text>\n",
            x,
            y,
            weight,
            t.replace("&", "&amp;").replace("<", "&lt;")));
  }
}
