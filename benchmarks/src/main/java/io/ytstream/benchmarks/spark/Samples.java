package io.ytstream.benchmarks.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The figures of one benchmark cell over several runs: median and range. */
final class Samples {

  private final List<Double> values = new ArrayList<>();

  void add(double value) {
    values.add(value);
  }

  double get(int i) {
    return values.get(i);
  }

  int size() {
    return values.size();
  }

  double median() {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    int n = sorted.size();
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  double min() {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  double max() {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** {@code median [min–max]} with the given format for each number. */
  String format(String number) {
    if (values.isEmpty()) {
      return "-";
    }
    if (values.size() == 1) {
      return String.format(Locale.ROOT, number, median());
    }
    return String.format(
        Locale.ROOT, number + " [" + number + "–" + number + "]", median(), min(), max());
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
