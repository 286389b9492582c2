package io.ytstream.types.value;

import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.YsonAttributed;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A column read as another type than its own, because the job says so (SPYT's schema hint, a read
 * option {@code <column>_hint}): whether the column's values can be read as the hinted type, and
 * each value as a row value of it ({@link YtValues}' form).
 *
 * <ul>
 *   <li>A {@code yson} or composite column is decoded from its YSON representation ({@link
 *       YsonRepresentation}) into the hinted type, as SPYT decodes such a column into the Spark
 *       type of the hint. A hinted struct reads the map keys it names and leaves the others out;
 *       attributes are dropped; a value that does not fit (out of range, missing where required, of
 *       another kind) fails naming its place.
 *   <li>A primitive column is read as its own type, or widened where every value fits: an integer
 *       into an integer of a range that holds it, into {@code double} (32 bits at most) or a
 *       decimal with enough integer digits; {@code float} into {@code double}; {@code utf8} and
 *       {@code json} as {@code string}; a date or time into its 64-bit variant.
 *   <li>Anything else (narrowing, parsing text, a different kind) is refused: SPYT truncates or
 *       parses silently there; a cast in the query says what happens to a value that does not fit.
 * </ul>
 */
public final class HintedRead {

  /** How a value of the column becomes a value of the hinted type. */
  public enum Way {
    /** The value is already one of the hinted type. */
    AS_IS,
    /** A number of a narrower type, widened. */
    WIDENED,
    /** Decoded from the value's YSON representation. */
    FROM_YSON
  }

  /** The decision: read as hinted, or refused with the reason. */
  public sealed interface Decision permits Accepted, Refused {}

  /** The column is read as the hinted type. */
  public record Accepted(HintedRead read) implements Decision {}

  /** The column cannot be read as the hinted type; {@code reason} says why. */
  public record Refused(String reason) implements Decision {}

  private final YtType column;
  private final YtType target;
  private final Way way;

  private HintedRead(YtType column, YtType target, Way way) {
    this.column = column;
    this.target = target;
    this.way = way;
  }

  /** Whether and how values of {@code column} are read as {@code target}. */
  public static Decision decide(YtType column, YtType target) {
    YtType c = bare(column);
    YtType t = bare(target);
    if (c == YtPrimitive.YSON || !(c instanceof YtPrimitive || c instanceof YtDecimal)) {
      return new Accepted(new HintedRead(column, target, Way.FROM_YSON));
    }
    if (c.equals(t)) {
      return new Accepted(new HintedRead(column, target, Way.AS_IS));
    }
    if (c instanceof YtPrimitive cp && t instanceof YtPrimitive tp) {
      if (isInteger(cp) && isInteger(tp) && holds(tp, cp)) {
        return new Accepted(new HintedRead(column, target, Way.AS_IS));
      }
      if (isInteger(cp) && tp == YtPrimitive.DOUBLE && digits(cp) <= 10) {
        return new Accepted(new HintedRead(column, target, Way.WIDENED));
      }
      if (sameValuesWider(cp, tp)) {
        return new Accepted(new HintedRead(column, target, Way.AS_IS));
      }
    }
    if (c instanceof YtPrimitive cp
        && isInteger(cp)
        && t instanceof YtDecimal d
        && d.precision() - d.scale() >= digits(cp)) {
      return new Accepted(new HintedRead(column, target, Way.WIDENED));
    }
    if (c instanceof YtPrimitive cp
        && isInteger(cp)
        && (t instanceof YtDecimal
            || t instanceof YtPrimitive tp && (isInteger(tp) || tp == YtPrimitive.DOUBLE))) {
      return new Refused(c.describe() + " values do not all fit " + t.describe());
    }
    return new Refused(
        "a column of type "
            + c.describe()
            + " holds no "
            + t.describe()
            + " values (a primitive column is read as its own type or widened to one that holds"
            + " every value; a yson or composite column is decoded into any type)");
  }

  public Way way() {
    return way;
  }

  public YtType target() {
    return target;
  }

  /**
   * A row value of the column as a row value of the hinted type; null stays null.
   *
   * @throws IllegalArgumentException naming {@code where} and the place inside the value when it
   *     does not fit the hinted type
   */
  public Object convert(Object value, String where) {
    if (value == null) {
      return null;
    }
    return switch (way) {
      case AS_IS -> value;
      case WIDENED -> widen((Long) value);
      case FROM_YSON -> {
        Object yson =
            bare(column) == YtPrimitive.YSON ? value : YsonRepresentation.toYson(column, value);
        yield YsonRepresentation.fromYson(target, project(target, yson), where);
      }
    };
  }

  private Object widen(long value) {
    YtType t = bare(target);
    boolean unsigned = bare(column) == YtPrimitive.UINT64;
    if (t instanceof YtDecimal d) {
      BigInteger integer = BigInteger.valueOf(value);
      if (unsigned && value < 0) {
        integer = integer.add(BigInteger.ONE.shiftLeft(64));
      }
      return new BigDecimal(integer).setScale(d.scale());
    }
    return (double) value;
  }

  /**
   * The YSON value with what the hinted type does not name left out: map keys a struct has no
   * member for, and attributes (unless the place is {@code yson}, which keeps the value whole).
   */
  private static Object project(YtType type, Object yson) {
    if (type instanceof YtTagged tagged) {
      return project(tagged.item(), yson);
    }
    if (type == YtPrimitive.YSON) {
      return yson;
    }
    if (yson instanceof YsonAttributed attributed) {
      return project(type, attributed.value());
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable() || !(yson instanceof List<?> wrapped)) {
        return project(o.item(), yson);
      }
      return mapList(wrapped, i -> o.item());
    }
    if (type instanceof YtList l && yson instanceof List<?> items) {
      return mapList(items, i -> l.item());
    }
    if (type instanceof YtTuple t && yson instanceof List<?> items) {
      return mapList(items, i -> i < t.elements().size() ? t.elements().get(i) : YtPrimitive.YSON);
    }
    if (type instanceof YtStruct s) {
      if (yson instanceof Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (YtMember m : s.members()) {
          if (map.containsKey(m.name())) {
            out.put(m.name(), project(m.type(), map.get(m.name())));
          }
        }
        return out;
      }
      if (yson instanceof List<?> positional) {
        return mapList(
            positional, i -> i < s.members().size() ? s.members().get(i).type() : YtPrimitive.YSON);
      }
    }
    if (type instanceof YtDict d) {
      if (yson instanceof Map<?, ?> map) {
        Map<Object, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(k, project(d.value(), v)));
        return out;
      }
      if (yson instanceof List<?> pairs) {
        List<Object> out = new ArrayList<>(pairs.size());
        for (Object entry : pairs) {
          if (entry instanceof List<?> pair && pair.size() == 2) {
            List<Object> projected = new ArrayList<>(2);
            projected.add(project(d.key(), pair.get(0)));
            projected.add(project(d.value(), pair.get(1)));
            out.add(projected);
          } else {
            out.add(entry);
          }
        }
        return out;
      }
    }
    return yson;
  }

  private interface TypeAt {
    YtType at(int index);
  }

  private static List<Object> mapList(List<?> items, TypeAt types) {
    List<Object> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      out.add(project(types.at(i), items.get(i)));
    }
    return out;
  }

  /** The type without tags and without one optional around a non-nullable item. */
  private static YtType bare(YtType type) {
    YtType t = untag(type);
    if (t instanceof YtOptional o && !o.item().isNullable()) {
      t = untag(o.item());
    }
    return t;
  }

  private static YtType untag(YtType type) {
    YtType t = type;
    while (t instanceof YtTagged tagged) {
      t = tagged.item();
    }
    return t;
  }

  private static boolean isInteger(YtPrimitive p) {
    return switch (p) {
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
      default -> false;
    };
  }

  private static BigInteger min(YtPrimitive p) {
    return switch (p) {
      case INT8 -> BigInteger.valueOf(Byte.MIN_VALUE);
      case INT16 -> BigInteger.valueOf(Short.MIN_VALUE);
      case INT32 -> BigInteger.valueOf(Integer.MIN_VALUE);
      case INT64 -> BigInteger.valueOf(Long.MIN_VALUE);
      default -> BigInteger.ZERO;
    };
  }

  private static BigInteger max(YtPrimitive p) {
    return switch (p) {
      case INT8 -> BigInteger.valueOf(Byte.MAX_VALUE);
      case INT16 -> BigInteger.valueOf(Short.MAX_VALUE);
      case INT32 -> BigInteger.valueOf(Integer.MAX_VALUE);
      case INT64 -> BigInteger.valueOf(Long.MAX_VALUE);
      case UINT8 -> BigInteger.valueOf(255);
      case UINT16 -> BigInteger.valueOf(65_535);
      case UINT32 -> BigInteger.valueOf(4_294_967_295L);
      default -> BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    };
  }

  /** Whether integer type {@code wide} holds every value of {@code narrow}. */
  private static boolean holds(YtPrimitive wide, YtPrimitive narrow) {
    return min(wide).compareTo(min(narrow)) <= 0 && max(wide).compareTo(max(narrow)) >= 0;
  }

  /** Decimal digits of the integer type's largest magnitude. */
  private static int digits(YtPrimitive p) {
    return max(p).max(min(p).abs()).toString().length();
  }

  /** Types whose row values are the same Java values, the target's range holding the column's. */
  private static boolean sameValuesWider(YtPrimitive column, YtPrimitive target) {
    return switch (column) {
      case FLOAT -> target == YtPrimitive.DOUBLE;
      case UTF8, JSON -> target == YtPrimitive.STRING;
      case DATE -> target == YtPrimitive.DATE32;
      case DATETIME -> target == YtPrimitive.DATETIME64;
      case TIMESTAMP -> target == YtPrimitive.TIMESTAMP64;
      case INTERVAL -> target == YtPrimitive.INTERVAL64;
      default -> false;
    };
  }
}
