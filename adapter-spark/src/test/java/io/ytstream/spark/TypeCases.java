package io.ytstream.spark;

import static io.ytstream.types.v3.YtType.member;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One column per type and nesting shape, each with edge values (integer min/max, NaN, -0.0, empty
 * containers, nulls at every level, bytes that are not UTF-8), laid out as rows of one table so
 * that one Spark query carries every type at once. Row i holds value i of each column, cycling
 * through shorter lists.
 */
final class TypeCases {

  record Case(String column, YtType type, List<Object> values) {}

  private static final long DAYS = 49_673L;
  private static final long TS_MAX = DAYS * 86_400L * 1_000_000L - 1;
  private static final long DATE32_MIN = -53_375_809L;
  private static final long DATE32_MAX = 53_375_807L;

  private TypeCases() {}

  static List<Object> list(Object... items) {
    return Arrays.asList(items);
  }

  static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  private static YtType opt(YtType t) {
    return YtType.optional(t);
  }

  private static Case c(String column, YtType type, Object... values) {
    return new Case(column, type, Arrays.asList(values));
  }

  static List<Case> all() {
    YtPrimitive i64 = YtPrimitive.INT64;
    List<Case> cases = new ArrayList<>();
    cases.add(c("int8", YtPrimitive.INT8, -128L, 127L, 0L));
    cases.add(c("int16", opt(YtPrimitive.INT16), -32_768L, 32_767L, null));
    cases.add(c("int32", YtPrimitive.INT32, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE));
    cases.add(c("int64", opt(i64), Long.MIN_VALUE, Long.MAX_VALUE, null, -1L));
    cases.add(c("uint8", YtPrimitive.UINT8, 0L, 255L));
    cases.add(c("uint16", YtPrimitive.UINT16, 0L, 65_535L));
    cases.add(c("uint32", YtPrimitive.UINT32, 0L, 4_294_967_295L));
    // The Long holds the bits: -1L is 2^64-1, Long.MIN_VALUE is 2^63.
    cases.add(c("uint64", opt(YtPrimitive.UINT64), 0L, -1L, Long.MIN_VALUE, null, Long.MAX_VALUE));
    cases.add(
        c(
            "float",
            YtPrimitive.FLOAT,
            (double) 0.1f,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            -0.0));
    cases.add(
        c(
            "double",
            opt(YtPrimitive.DOUBLE),
            Double.NaN,
            -0.0,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            null,
            Double.NEGATIVE_INFINITY));
    cases.add(c("bool", opt(YtPrimitive.BOOL), true, false, null));
    cases.add(
        c(
            "string",
            opt(YtPrimitive.STRING),
            "",
            "héllo ✓ 日本",
            bytes(0xff, 0x00, 0x80),
            null,
            bytes(0xc3, 0x28)));
    cases.add(c("utf8", YtPrimitive.UTF8, "", "日本語 𝄞"));
    cases.add(c("json", opt(YtPrimitive.JSON), "{\"a\":[1,2.5,null]}", "null", null));
    cases.add(
        c(
            "uuid",
            YtPrimitive.UUID,
            bytes(0xff, 0xfe, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x7f)));
    cases.add(c("date", YtPrimitive.DATE, 0L, DAYS - 1));
    cases.add(c("datetime", YtPrimitive.DATETIME, 0L, DAYS * 86_400L - 1));
    cases.add(c("timestamp", opt(YtPrimitive.TIMESTAMP), 0L, TS_MAX, null));
    cases.add(c("interval", YtPrimitive.INTERVAL, -TS_MAX, TS_MAX, 0L));
    cases.add(c("date32", YtPrimitive.DATE32, DATE32_MIN, DATE32_MAX));
    cases.add(
        c(
            "datetime64",
            YtPrimitive.DATETIME64,
            DATE32_MIN * 86_400L,
            (DATE32_MAX + 1) * 86_400L - 1));
    cases.add(
        c(
            "timestamp64",
            YtPrimitive.TIMESTAMP64,
            DATE32_MIN * 86_400L * 1_000_000L,
            (DATE32_MAX + 1) * 86_400L * 1_000_000L - 1));
    cases.add(
        c(
            "interval64",
            YtPrimitive.INTERVAL64,
            -9_223_339_708_800_000_000L,
            9_223_339_708_800_000_000L));
    cases.add(
        c(
            "decimal_5_4",
            opt(YtType.decimal(5, 4)),
            new BigDecimal("3.1415"),
            new BigDecimal("-9.9999"),
            null));
    cases.add(
        c(
            "decimal_35_10",
            YtType.decimal(35, 10),
            new BigDecimal("-1234567890123456789012345.0123456789")));
    cases.add(c("decimal_76_0", YtType.decimal(76, 0), new BigDecimal("-" + "9".repeat(76))));
    // Values that JSON carries exactly (see docs/types.md: inside yson a uint64 below 2^63 comes
    // back over HTTP as an int64, a NaN as a string).
    cases.add(
        c(
            "yson",
            opt(YtPrimitive.YSON),
            null,
            map(),
            list(),
            map("a", list(1L, 2.5, null, "x"), "$dollar", map("nested", -0.0), "bin", bytes(0xff)),
            new YsonAttributed(map("attr", 10L), map("x", YsonUint64.MAX))));
    cases.add(c("opt_opt_bool", opt(opt(YtPrimitive.BOOL)), null, list((Object) null), list(true)));
    cases.add(c("list_opt_utf8", YtType.list(opt(YtPrimitive.UTF8)), list(), list("a", null, "")));
    cases.add(
        c(
            "list_list_double",
            opt(YtType.list(YtType.list(YtPrimitive.DOUBLE))),
            list(list(), list(Double.NaN, -0.0, 1.0)),
            null,
            list()));
    cases.add(
        c(
            "struct",
            YtType.struct(
                member("a", i64),
                member("b", opt(YtPrimitive.STRING)),
                member("$c", YtType.list(YtPrimitive.INT8))),
            map("a", 1L, "b", "x", "$c", list(1L)),
            map("a", -1L, "b", null, "$c", list())));
    cases.add(
        c(
            "tuple",
            opt(YtType.tuple(i64, opt(YtPrimitive.UTF8), YtPrimitive.BOOL)),
            list(1L, null, true),
            null,
            list(-5L, "minus five", false)));
    cases.add(
        c(
            "dict_utf8",
            YtType.dict(YtPrimitive.UTF8, opt(i64)),
            list(),
            list(list("k", 1L), list("k", null)),
            list(list("x", 2L))));
    cases.add(
        c(
            "dict_int64",
            YtType.dict(i64, YtType.list(YtPrimitive.STRING)),
            list(list(1L, list("a", bytes(0xfe))), list(-1L, list()))));
    cases.add(
        c(
            "dict_opt_key",
            YtType.dict(opt(YtPrimitive.UTF8), YtPrimitive.UINT64),
            list(list(null, -1L), list("k", 0L)),
            list()));
    cases.add(
        c(
            "variant_tuple",
            YtType.variantTuple(i64, opt(YtPrimitive.UTF8)),
            list(0L, 42L),
            list(1L, null),
            list(1L, "foo bar")));
    cases.add(
        c(
            "variant_struct",
            opt(YtType.variantStruct(member("Foo", i64), member("Bar", opt(YtPrimitive.UTF8)))),
            list("Foo", 42L),
            list("Bar", null),
            null));
    cases.add(
        c("tagged", YtType.tagged("image/png", YtPrimitive.STRING), bytes(0x89, 'P', 'N', 'G')));
    cases.add(
        c(
            "deep",
            opt(
                YtType.list(
                    YtType.struct(
                        member(
                            "k",
                            YtType.dict(
                                YtPrimitive.STRING,
                                YtType.variantTuple(opt(i64), YtPrimitive.UUID))),
                        member("t", YtType.tagged("x", opt(opt(YtType.decimal(10, 2)))))))),
            null,
            list(),
            list(
                map("k", list(), "t", null),
                map("k", list(list("a", list(0L, null))), "t", list((Object) null)),
                map(
                    "k",
                    list(
                        list(
                            "",
                            list(
                                1L,
                                bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff)))),
                    "t",
                    list(new BigDecimal("-12345678.90"))))));
    cases.add(c("list_yson", YtType.list(YtPrimitive.YSON), list(null, map(), list())));
    cases.add(
        c(
            "list_decimal",
            YtType.list(opt(YtType.decimal(10, 2))),
            list(new BigDecimal("1.50"), null)));
    cases.add(c("void", YtPrimitive.VOID, (Object) null));
    return cases;
  }

  static int rowCount(List<Case> cases) {
    int rows = 0;
    for (Case c : cases) {
      rows = Math.max(rows, c.values().size());
    }
    return rows;
  }

  static List<Column> columns(List<Case> cases) {
    List<Column> columns = new ArrayList<>();
    columns.add(Column.of("id", YtPrimitive.INT64, false));
    for (Case c : cases) {
      columns.add(Column.of(c.column(), c.type(), false));
    }
    return columns;
  }

  /** Row i, canonical ({@link YtValues#normalize}), without {@code $tablet_index}. */
  static Row row(List<Case> cases, int i) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("id", (long) i);
    for (Case c : cases) {
      Object v = c.values().get(i % c.values().size());
      values.put(c.column(), YtValues.normalize(c.type(), v, c.column()));
    }
    return Row.of(values);
  }

  static List<Row> rows(List<Case> cases) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < rowCount(cases); i++) {
      rows.add(row(cases, i));
    }
    return rows;
  }
}
