package io.plumb.report;

/**
 * One colour per result, the same in every chart and in the table (Tableau 10: distinct for most
 * forms of colour blindness, and readable on white).
 */
final class Palette {
  private static final String[] COLORS = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"
  };

  private Palette() {}

  static String color(int index) {
    return COLORS[index % COLORS.length];
  }
}
