package io.ytstream.ytsaurus;

import io.ytstream.ports.TextSlice;
import io.ytstream.types.text.StrictUtf8;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.YsonRepresentation;
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.YsonLexer;
import io.ytstream.types.yson.YsonUint64;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a binary YSON row stream in one pass, straight from the bytes to the values the port
 * defines, as {@link YsonRows} does with yt-types' tree reader but without the tree: a column name
 * is decoded once per position while rows keep their layout, and the common scalar columns (int64,
 * uint64, double, bool, string, utf8, untyped) skip the intermediate value. Every other type is
 * read as a YSON value and converted by yt-types' {@link YsonRepresentation}, so both paths give
 * the same results. The tokens of binary YSON (varints, zigzag, doubles, strings, markers) are
 * yt-types' {@link YsonLexer}, the one the tree reader uses; a value of another type is read by
 * that tree reader ({@link YsonLexer#readValue}) at the decoder's position.
 *
 * <p>With {@code textAsBytes} a string or utf8 column's value is its bytes in the answer (a {@link
 * TextSlice} of {@code data}, which is never changed; a utf8 one checked to be UTF-8) instead of a
 * decoded {@link String}: for a reader that hands the bytes on as they are (Spark's {@code
 * UTF8String}), decoding them to UTF-16 and encoding them again, or copying them, is wasted work.
 * An int64 value is handed to {@link RowVisitor#integer} unboxed.
 */
final class BinaryYsonRowDecoder extends YsonLexer {

  private final Map<String, YtType> types;
  private final boolean textAsBytes;

  // Per position in the row: the key bytes last seen there and their column.
  private byte[][] keyBytes = new byte[8][];
  private Column[] keyColumns = new Column[8];
  // Per position: the bytes from the key's marker to its '=' when they came without white space.
  private byte[][] keyPrefixes = new byte[8][];
  private final Map<String, Column> byName = new HashMap<>();

  BinaryYsonRowDecoder(byte[] data, Map<String, YtType> types) {
    this(data, types, false);
  }

  BinaryYsonRowDecoder(byte[] data, Map<String, YtType> types, boolean textAsBytes) {
    super(data, 0);
    this.types = types;
    this.textAsBytes = textAsBytes;
  }

  void decode(RowVisitor visitor) {
    while (true) {
      skipWhitespace();
      if (pos >= data.length) {
        return;
      }
      if (data[pos] != '{') {
        throw error("a row is not a map");
      }
      pos++;
      readRow(visitor);
      if (!visitor.endRow()) {
        return;
      }
      skipWhitespace();
      if (pos < data.length) {
        if (data[pos] != ';') {
          throw error("rows are separated by ';'");
        }
        pos++;
      }
    }
  }

  private void readRow(RowVisitor visitor) {
    int position = 0;
    while (true) {
      Column column = knownKey(position);
      if (column == null) {
        skipWhitespace();
        if (peek() == '}') {
          pos++;
          return;
        }
        int start = pos;
        column = readKey(position);
        boolean contiguous = pos < data.length && data[pos] == '=';
        skipWhitespace();
        if (peek() != '=') {
          throw error("expected '=' after a column name");
        }
        pos++;
        keyPrefixes[position] = contiguous ? Arrays.copyOfRange(data, start, pos) : null;
      }
      position++;
      skipWhitespace();
      column.read(this, visitor);
      skipWhitespace();
      byte b = peek();
      if (b == ';') {
        pos++;
      } else if (b != '}') {
        throw error("expected ';' or '}' after a value");
      }
    }
  }

  /**
   * The column whose key comes next when the bytes here are, exactly, those of the key last read at
   * {@code position} (its marker, length, name and '='), moving past them; else null, and nothing
   * read. A server writes every row of an answer with the same keys in the same order, so this one
   * comparison usually stands for the key's parse.
   */
  private Column knownKey(int position) {
    if (position >= keyPrefixes.length) {
      return null;
    }
    byte[] prefix = keyPrefixes[position];
    if (prefix == null
        || prefix.length > data.length - pos
        || !Arrays.equals(data, pos, pos + prefix.length, prefix, 0, prefix.length)) {
      return null;
    }
    pos += prefix.length;
    return keyColumns[position];
  }

  private Column readKey(int position) {
    if (peek() != STRING_MARKER) {
      throw error("a column name is not a binary string");
    }
    pos++;
    int length = readBinaryStringLength();
    int start = pos;
    pos += length;
    if (position < keyBytes.length) {
      byte[] last = keyBytes[position];
      if (last != null && sameKey(last, start, length)) {
        return keyColumns[position];
      }
    } else {
      keyBytes = Arrays.copyOf(keyBytes, position * 2);
      keyColumns = Arrays.copyOf(keyColumns, position * 2);
      keyPrefixes = Arrays.copyOf(keyPrefixes, position * 2);
    }
    String name = new String(data, start, length, StandardCharsets.UTF_8);
    Column column = byName.computeIfAbsent(name, n -> new Column(n, types.get(n)));
    keyBytes[position] = Arrays.copyOfRange(data, start, start + length);
    keyColumns[position] = column;
    return column;
  }

  /**
   * Whether the key at {@code [start, start + length)} is {@code last}: a plain loop, as column
   * names are short and {@code Arrays.equals} over ranges costs more to set up than they take.
   */
  private boolean sameKey(byte[] last, int start, int length) {
    if (last.length != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (last[i] != data[start + i]) {
        return false;
      }
    }
    return true;
  }

  /** How a column's values are read: a fast path for common scalar types, else core's. */
  private enum Path {
    UNTYPED,
    INT64,
    UINT64,
    DOUBLE,
    BOOL,
    STRING,
    UTF8,
    GENERAL
  }

  private static final class Column {

    private final String name;
    private final YtType type;
    private final String where;
    private final Path path;

    Column(String name, YtType type) {
      this.name = name;
      this.type = type;
      this.where = "column \"" + name + "\"";
      this.path = pathOf(type);
    }

    /** Tagged and optional (of a non-optional) wrappers read as their item or null. */
    private static Path pathOf(YtType type) {
      if (type == null) {
        return Path.UNTYPED;
      }
      YtType t = type;
      while (true) {
        if (t instanceof YtTagged tagged) {
          t = tagged.item();
        } else if (t instanceof YtOptional o && !o.item().isNullable()) {
          t = o.item();
        } else {
          break;
        }
      }
      if (t instanceof YtPrimitive p) {
        return switch (p) {
          case INT64 -> Path.INT64;
          case UINT64 -> Path.UINT64;
          case DOUBLE -> Path.DOUBLE;
          case BOOL -> Path.BOOL;
          case STRING -> Path.STRING;
          case UTF8 -> Path.UTF8;
          default -> Path.GENERAL;
        };
      }
      return Path.GENERAL;
    }

    /** Reads one value and hands it to {@code visitor} (an int64 unboxed). */
    void read(BinaryYsonRowDecoder in, RowVisitor visitor) {
      byte marker = in.peek();
      if (marker == INT64_MARKER && (path == Path.INT64 || path == Path.UNTYPED)) {
        in.pos++;
        visitor.integer(name, in.readZigzag("int64"));
        return;
      }
      if (marker == UINT64_MARKER && path == Path.UNTYPED) {
        in.pos++;
        visitor.unsigned(name, in.readVarint("uint64"));
        return;
      }
      if (marker == STRING_MARKER && in.textAsBytes && (path == Path.STRING || path == Path.UTF8)) {
        in.pos++;
        int length = in.readBinaryStringLength();
        int start = in.pos;
        in.pos += length;
        if (path == Path.UTF8 && !StrictUtf8.isWellFormed(in.data, start, length)) {
          throw new YtTransportException(where + ": a utf8 value is not UTF-8", null);
        }
        visitor.text(name, in.data, start, length);
        return;
      }
      visitor.column(name, read(in, marker));
    }

    private Object read(BinaryYsonRowDecoder in, byte marker) {
      if (marker == '#') {
        in.pos++;
        return null;
      }
      switch (path) {
        case UINT64:
          if (marker == UINT64_MARKER) {
            in.pos++;
            return in.readVarint("uint64");
          }
          break;
        case DOUBLE:
          if (marker == DOUBLE_MARKER) {
            in.pos++;
            return in.readBinaryDouble();
          }
          break;
        case BOOL:
          if (marker == FALSE_MARKER || marker == TRUE_MARKER) {
            in.pos++;
            return marker == TRUE_MARKER;
          }
          break;
        case STRING:
          if (marker == STRING_MARKER) {
            in.pos++;
            return in.textAsBytes ? in.sliceValue() : in.stringValue();
          }
          break;
        case UNTYPED:
          if (marker == STRING_MARKER) {
            in.pos++;
            return in.stringValue();
          }
          return untypedScalarOrGeneral(in, marker);
        case UTF8:
          if (marker == STRING_MARKER) {
            in.pos++;
            // Decoded text is a String only when it is UTF-8; kept bytes are null when not.
            Object text = in.textAsBytes ? in.utf8SliceOrNull() : in.stringValue();
            if (in.textAsBytes ? text != null : text instanceof String) {
              return text;
            }
            throw new YtTransportException(where + ": a utf8 value is not UTF-8", null);
          }
          break;
        default:
          break;
      }
      return general(in.readGeneral());
    }

    private Object untypedScalarOrGeneral(BinaryYsonRowDecoder in, byte marker) {
      switch (marker) {
        case INT64_MARKER:
          in.pos++;
          return in.readZigzag("int64");
        case UINT64_MARKER:
          in.pos++;
          return new YsonUint64(in.readVarint("uint64"));
        case DOUBLE_MARKER:
          in.pos++;
          return in.readBinaryDouble();
        case FALSE_MARKER:
        case TRUE_MARKER:
          in.pos++;
          return marker == TRUE_MARKER;
        default:
          return general(in.readGeneral());
      }
    }

    private Object general(Object yson) {
      if (yson == null) {
        return null;
      }
      try {
        return type == null
            ? YtValues.normalize(YtPrimitive.YSON, yson, where)
            : YsonRepresentation.fromYson(type, yson, where);
      } catch (IllegalArgumentException e) {
        throw new YtTransportException(
            "the server sent a value that does not fit "
                + (type == null ? "YSON" : type.describe())
                + ": "
                + e.getMessage(),
            e);
      }
    }
  }

  /** A whole YSON value (the Yson model), by the tree reader, for the general path. */
  private Object readGeneral() {
    try {
      return readValue();
    } catch (IllegalArgumentException e) {
      throw new YtTransportException(
          "a tabular response is not binary YSON rows: " + e.getMessage(), e);
    }
  }

  // ---- scalars ----

  /** A string's bytes as the port's value: text when they are UTF-8, else the bytes. */
  private Object stringValue() {
    int length = readBinaryStringLength();
    int start = pos;
    pos += length;
    String text = StrictUtf8.decodeOrNull(data, start, length);
    return text != null ? text : Arrays.copyOfRange(data, start, start + length);
  }

  /** A string's bytes where they are in the answer, not copied. */
  private TextSlice sliceValue() {
    int length = readBinaryStringLength();
    int start = pos;
    pos += length;
    return new TextSlice(data, start, length);
  }

  /** A string's bytes in the answer when they are UTF-8, else null. */
  private TextSlice utf8SliceOrNull() {
    TextSlice slice = sliceValue();
    return StrictUtf8.isWellFormed(data, slice.offset(), slice.length()) ? slice : null;
  }

  @Override
  protected YtTransportException error(String what) {
    return new YtTransportException(
        "a tabular response is not binary YSON rows: " + what + " at byte " + pos, null);
  }
}
