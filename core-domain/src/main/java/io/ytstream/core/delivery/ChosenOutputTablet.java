package io.ytstream.core.delivery;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The output tablet a job chose for a row of an ordered output, instead of {@link OutputTablets}'
 * round-robin: either the row names it (a {@code $tablet_index} column, as YTsaurus' own insert
 * into an ordered table takes it), or its key columns are hashed onto the tablets, so every row of
 * one key lands in one tablet and keeps its order there. Both depend on the row alone, so a
 * replayed task puts each row where its first attempt did.
 *
 * <p>The key hash is defined here, not taken from the JVM ({@code Object.hashCode} of a string or a
 * boxed value is not a contract across versions): 64-bit FNV-1a over the key's canonical bytes, the
 * columns in the order given, each value as a tag byte then its bytes: {@code 0} null; {@code 1}
 * boolean (one byte 0/1); {@code 2} integer (8 bytes big-endian, any width); {@code 3} floating
 * point (the 8 bytes of {@code Double.doubleToLongBits}, big-endian); {@code 4} string or bytes
 * (4-byte big-endian length, then the bytes; a string as UTF-8, so a YTsaurus string column hashes
 * the same whether an engine hands it in as text or as its bytes). The tablet is the hash, read as
 * an unsigned 64-bit number, modulo the tablet count.
 */
public final class ChosenOutputTablet {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private ChosenOutputTablet() {}

  /**
   * The tablet a row names in {@code column}.
   *
   * @throws IllegalArgumentException when the value is null, not an integer, or not one of the
   *     output's tablets; the message names the column, the value and the tablet count
   */
  public static int named(String column, Object value, int tablets) {
    checkTablets(tablets);
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      long index = ((Number) value).longValue();
      if (index >= 0 && index < tablets) {
        return (int) index;
      }
    }
    throw new IllegalArgumentException(
        "column "
            + column
            + " is "
            + describe(value)
            + ", but the output has "
            + tablets
            + " tablet"
            + (tablets == 1 ? "" : "s")
            + ": give each row an integer from 0 to "
            + (tablets - 1)
            + ", or drop the column to spread the rows over the tablets. Nothing of this task's"
            + " rows is written");
  }

  /**
   * The tablet of a row whose key columns hold {@code values} (in the order of {@code columns}).
   *
   * @throws IllegalArgumentException when a value is not a scalar the hash defines (a list, a map,
   *     a decimal): the message names the column
   */
  public static int byKey(List<String> columns, List<?> values, int tablets) {
    checkTablets(tablets);
    if (columns.size() != values.size()) {
      throw new IllegalArgumentException(
          "a key of columns " + columns + " has " + values.size() + " values");
    }
    return (int) Long.remainderUnsigned(keyHash(columns, values), tablets);
  }

  /** The 64-bit hash {@link #byKey} takes modulo the tablet count, for tests and other engines. */
  public static long keyHash(List<String> columns, List<?> values) {
    long hash = FNV_OFFSET;
    for (int i = 0; i < values.size(); i++) {
      hash = mix(hash, columns.get(i), values.get(i));
    }
    return hash;
  }

  /**
   * A writer's guard on a tablet an engine hands in as the job's choice: the engine decided it with
   * {@link #named} or {@link #byKey}, refusing a bad value with the user's column, so a value out
   * of range here is a bug of the engine; a sorted output has no tablet to choose (its rows go by
   * key).
   */
  public static int checkedForWriter(boolean sorted, int tablet, int tablets) {
    if (sorted) {
      throw new IllegalStateException(
          "a sorted output places each row in the tablet of its key; a chosen tablet applies to"
              + " ordered outputs only");
    }
    if (tablet < 0 || tablet >= tablets) {
      throw new IllegalArgumentException(
          "chosen output tablet " + tablet + " is not one of the output's " + tablets + " tablets");
    }
    return tablet;
  }

  private static long mix(long hash, String column, Object value) {
    if (value == null) {
      return bytes(hash, new byte[] {0});
    }
    if (value instanceof Boolean b) {
      return bytes(hash, new byte[] {1, (byte) (b ? 1 : 0)});
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return bytes(bytes(hash, new byte[] {2}), longBytes(((Number) value).longValue()));
    }
    if (value instanceof Double || value instanceof Float) {
      long bits = Double.doubleToLongBits(((Number) value).doubleValue());
      return bytes(bytes(hash, new byte[] {3}), longBytes(bits));
    }
    if (value instanceof String s) {
      return lengthAndBytes(hash, (byte) 4, s.getBytes(StandardCharsets.UTF_8));
    }
    if (value instanceof byte[] raw) {
      return lengthAndBytes(hash, (byte) 4, raw);
    }
    throw new IllegalArgumentException(
        "key column "
            + column
            + " holds a "
            + value.getClass().getSimpleName()
            + ", which the output tablet key cannot hash: use columns of strings, bytes, integers,"
            + " floating point numbers or booleans (cast the column, e.g. to a string)");
  }

  private static long lengthAndBytes(long hash, byte tag, byte[] raw) {
    byte[] length = {
      (byte) (raw.length >>> 24),
      (byte) (raw.length >>> 16),
      (byte) (raw.length >>> 8),
      (byte) raw.length
    };
    return bytes(bytes(bytes(hash, new byte[] {tag}), length), raw);
  }

  private static byte[] longBytes(long v) {
    byte[] out = new byte[8];
    for (int i = 7; i >= 0; i--) {
      out[i] = (byte) v;
      v >>>= 8;
    }
    return out;
  }

  private static long bytes(long hash, byte[] data) {
    for (byte b : data) {
      hash ^= (b & 0xff);
      hash *= FNV_PRIME;
    }
    return hash;
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "'" + s + "'";
    }
    return String.valueOf(value);
  }

  private static void checkTablets(int tablets) {
    if (tablets < 1) {
      throw new IllegalArgumentException("an output has at least one tablet: " + tablets);
    }
  }
}
