package io.ytstream.types.value;

import io.ytstream.types.v3.YtDecimal;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The binary form of a {@code decimal(p,s)} value, as {@code
 * yt/docs/en/_includes/user-guide/storage/data-types.md} ("Decimal") defines it: the unscaled value
 * as a big-endian two's complement number of 4 bytes (p ≤ 9), 8 (p ≤ 18), 16 (p ≤ 38) or 32 (p ≤
 * 76), with the top bit inverted so that the bytes sort as the numbers do. This is how a decimal
 * travels inside YSON values (and so inside composite values and {@code string} views of a column).
 * The special values nan and ±inf, which {@link BigDecimal} cannot hold, are rejected.
 */
public final class DecimalBinary {

  private DecimalBinary() {}

  /** The number of bytes of the binary form for a precision. */
  public static int width(int precision) {
    if (precision <= 9) {
      return 4;
    }
    if (precision <= 18) {
      return 8;
    }
    return precision <= 38 ? 16 : 32;
  }

  /** Encodes a value already in canonical form for {@code type} (see {@link YtValues}). */
  public static byte[] encode(YtDecimal type, BigDecimal value) {
    BigDecimal canonical = (BigDecimal) YtValues.normalize(type, value);
    byte[] twos = canonical.unscaledValue().toByteArray();
    int width = width(type.precision());
    byte[] out = new byte[width];
    byte fill = (byte) (twos[0] < 0 ? 0xff : 0x00);
    int pad = width - twos.length;
    for (int i = 0; i < width; i++) {
      out[i] = i < pad ? fill : twos[i - pad];
    }
    out[0] ^= (byte) 0x80;
    return out;
  }

  /**
   * Decodes the binary form of a value of {@code type}.
   *
   * @throws IllegalArgumentException when the length does not fit the precision, or the bytes are
   *     one of the special values or out of the precision's range
   */
  public static BigDecimal decode(YtDecimal type, byte[] bytes) {
    int width = width(type.precision());
    if (bytes.length != width) {
      throw new IllegalArgumentException(
          "the binary form of "
              + type.describe()
              + " has "
              + width
              + " bytes, got "
              + bytes.length);
    }
    byte[] twos = bytes.clone();
    twos[0] ^= (byte) 0x80;
    BigInteger unscaled = new BigInteger(twos);
    BigInteger limit = BigInteger.TEN.pow(type.precision());
    if (unscaled.abs().compareTo(limit) >= 0) {
      throw new IllegalArgumentException(
          "the bytes of this "
              + type.describe()
              + " value hold "
              + unscaled
              + " (unscaled): nan, ±inf or a value beyond the precision, which ytstream cannot"
              + " represent");
    }
    return new BigDecimal(unscaled, type.scale());
  }
}
