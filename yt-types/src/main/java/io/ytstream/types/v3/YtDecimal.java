package io.ytstream.types.v3;

/**
 * {@code decimal(precision, scale)}. The documentation gives precision in [1, 35] for YQL and a
 * binary form up to precision 76; this accepts [1, {@value #MAX_PRECISION}] and scale in [0,
 * precision], leaving narrower limits to the server.
 */
public record YtDecimal(int precision, int scale) implements YtType {

  /** The largest precision the documented binary representation covers (256 bits). */
  public static final int MAX_PRECISION = 76;

  public YtDecimal {
    if (precision < 1 || precision > MAX_PRECISION) {
      throw new IllegalArgumentException(
          "decimal precision must be in [1, " + MAX_PRECISION + "], got " + precision);
    }
    if (scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "decimal scale must be in [0, precision=" + precision + "], got " + scale);
    }
  }

  @Override
  public String describe() {
    return "decimal(" + precision + "," + scale + ")";
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
