package io.ytstream.ports.contract;

import static io.ytstream.types.v3.YtType.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every type_v3 type and nesting shape, with edge values, written through {@code OutputTables} and
 * a {@code TabletTransaction} and read back through {@code OutputTables.readAll} and {@code
 * QueuePartitionReader.pull}: what comes back is the canonical value {@code YtValues} defines. Also
 * the table's description carries the type_v3 type, and invalid values are rejected.
 */
public abstract class TypedValuesContract extends PortContract {

  /** Values written, and what must be read back (null expected: the same as written). */
  private record Case(String name, YtType type, List<Object> written, List<Object> expected) {}

  private static Case same(String name, YtType type, Object... values) {
    return new Case(name, type, Arrays.asList(values), Arrays.asList(values));
  }

  private static Case changed(String name, YtType type, List<Object> written, List<Object> read) {
    return new Case(name, type, written, read);
  }

  private static List<Object> list(Object... items) {
    return Arrays.asList(items);
  }

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  private static byte[] everyByte() {
    byte[] out = new byte[256];
    for (int i = 0; i < 256; i++) {
      out[i] = (byte) i;
    }
    return out;
  }

  private static YtType opt(YtType t) {
    return YtType.optional(t);
  }

  private static final long DAYS = 49_673L;
  private static final long TS_MAX = DAYS * 86_400L * 1_000_000L - 1;

  static List<Case> cases() {
    YtPrimitive i64 = YtPrimitive.INT64;
    List<Case> cases = new ArrayList<>();
    cases.add(same("int8", YtPrimitive.INT8, -128L, 127L, 0L));
    cases.add(same("int16", YtPrimitive.INT16, -32_768L, 32_767L));
    cases.add(same("int32", YtPrimitive.INT32, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE));
    cases.add(same("int64", i64, Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L));
    cases.add(same("uint8", YtPrimitive.UINT8, 0L, 255L));
    cases.add(same("uint16", YtPrimitive.UINT16, 0L, 65_535L));
    cases.add(same("uint32", YtPrimitive.UINT32, 0L, 4_294_967_295L));
    // uint64: the Long holds the bits; -1L is 2^64-1, Long.MIN_VALUE is 2^63.
    cases.add(same("uint64", YtPrimitive.UINT64, 0L, Long.MAX_VALUE, Long.MIN_VALUE, -1L));
    cases.add(
        changed(
            "float",
            YtPrimitive.FLOAT,
            list(0.1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0),
            list(
                (double) 0.1f,
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0)));
    cases.add(
        same(
            "double",
            YtPrimitive.DOUBLE,
            0.1,
            -0.0,
            0.0,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            1e300,
            123456789012345678.0));
    cases.add(same("bool", YtPrimitive.BOOL, true, false));
    cases.add(
        changed(
            "string",
            YtPrimitive.STRING,
            list(
                "",
                "héllo ✓ 日本",
                bytes(0xff, 0x00, 0x80),
                "abc".getBytes(StandardCharsets.UTF_8),
                everyByte()),
            list("", "héllo ✓ 日本", bytes(0xff, 0x00, 0x80), "abc", everyByte())));
    cases.add(
        changed(
            "utf8",
            YtPrimitive.UTF8,
            list("", "日本語 𝄞", "é".getBytes(StandardCharsets.UTF_8)),
            list("", "日本語 𝄞", "é")));
    cases.add(same("json", YtPrimitive.JSON, "{\"a\":[1,2.5,null]}", "null", "\"é\""));
    cases.add(
        same(
            "uuid",
            YtPrimitive.UUID,
            bytes(0xff, 0xfe, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x7f)));
    cases.add(same("date", YtPrimitive.DATE, 0L, DAYS - 1));
    cases.add(same("datetime", YtPrimitive.DATETIME, 0L, DAYS * 86_400L - 1));
    cases.add(same("timestamp", YtPrimitive.TIMESTAMP, 0L, TS_MAX));
    cases.add(same("interval", YtPrimitive.INTERVAL, -TS_MAX, TS_MAX, 0L));
    cases.add(same("date32", YtPrimitive.DATE32, -53_375_809L, 53_375_807L));
    cases.add(
        same(
            "datetime64",
            YtPrimitive.DATETIME64,
            -53_375_809L * 86_400L,
            53_375_808L * 86_400L - 1));
    cases.add(
        same(
            "timestamp64",
            YtPrimitive.TIMESTAMP64,
            -53_375_809L * 86_400L * 1_000_000L,
            53_375_808L * 86_400L * 1_000_000L - 1));
    cases.add(
        same(
            "interval64",
            YtPrimitive.INTERVAL64,
            -9_223_339_708_800_000_000L,
            9_223_339_708_800_000_000L));
    cases.add(
        changed(
            "decimal_5_4",
            YtType.decimal(5, 4),
            list(new BigDecimal("3.1415"), new BigDecimal("-2.7182"), new BigDecimal("1")),
            list(new BigDecimal("3.1415"), new BigDecimal("-2.7182"), new BigDecimal("1.0000"))));
    cases.add(
        same(
            "decimal_18_2",
            YtType.decimal(18, 2),
            new BigDecimal("9999999999999999.99"),
            new BigDecimal("-9999999999999999.99")));
    cases.add(
        same(
            "decimal_35_10",
            YtType.decimal(35, 10),
            new BigDecimal("-1234567890123456789012345.0123456789")));
    cases.add(same("decimal_76_0", YtType.decimal(76, 0), new BigDecimal("-" + "9".repeat(76))));
    cases.add(
        same(
            "yson",
            opt(YtPrimitive.YSON),
            null,
            map(),
            list(),
            "text",
            42L,
            -0.0,
            true,
            YsonUint64.MAX,
            map(
                "a",
                list(1L, 2.5, null, "x"),
                "$dollar",
                map("nested", -0.0),
                "bin",
                bytes(0xff, 0xfe)),
            new YsonAttributed(map("attr", 10L), map("x", "y"))));
    cases.add(same("optional_int64", opt(i64), null, 5L));
    cases.add(
        same(
            "optional_optional_bool",
            opt(opt(YtPrimitive.BOOL)),
            null,
            list((Object) null),
            list(true)));
    cases.add(
        same(
            "list_optional_utf8", YtType.list(opt(YtPrimitive.UTF8)), list(), list("a", null, "")));
    cases.add(
        same(
            "list_list_double",
            YtType.list(YtType.list(YtPrimitive.DOUBLE)),
            list(list(), list(Double.NaN, -0.0, 1.0))));
    YtType struct =
        YtType.struct(
            member("a", i64),
            member("b", opt(YtPrimitive.STRING)),
            member("$c", YtType.list(YtPrimitive.INT8)));
    cases.add(
        changed(
            "struct",
            struct,
            list(map("a", 1L, "b", "x", "$c", list(1L)), map("a", -1L, "$c", list())),
            list(map("a", 1L, "b", "x", "$c", list(1L)), map("a", -1L, "b", null, "$c", list()))));
    cases.add(
        same(
            "tuple",
            YtType.tuple(i64, opt(YtPrimitive.UTF8), YtPrimitive.BOOL),
            list(1L, null, true),
            list(-5L, "minus five", false)));
    cases.add(
        changed(
            "dict_utf8",
            YtType.dict(YtPrimitive.UTF8, opt(i64)),
            list(list(), list(list("k", 1L), list("k", null)), map("x", 2L)),
            list(list(), list(list("k", 1L), list("k", null)), list(list("x", 2L)))));
    cases.add(
        same(
            "dict_int64",
            YtType.dict(i64, YtType.list(YtPrimitive.STRING)),
            list(list(1L, list("a")), list(-1L, list()))));
    cases.add(
        same(
            "variant_tuple",
            YtType.variantTuple(i64, opt(YtPrimitive.UTF8)),
            list(0L, 42L),
            list(1L, null),
            list(1L, "foo bar")));
    cases.add(
        same(
            "variant_struct",
            YtType.variantStruct(member("Foo", i64), member("Bar", opt(YtPrimitive.UTF8))),
            list("Foo", 42L),
            list("Bar", null)));
    cases.add(
        same("tagged", YtType.tagged("image/png", YtPrimitive.STRING), bytes(0x89, 'P', 'N', 'G')));
    YtType deep =
        opt(
            YtType.list(
                YtType.struct(
                    member(
                        "k",
                        YtType.dict(
                            YtPrimitive.STRING, YtType.variantTuple(opt(i64), YtPrimitive.UUID))),
                    member("t", YtType.tagged("x", opt(opt(YtType.decimal(10, 2))))))));
    cases.add(
        same(
            "deep",
            deep,
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
    cases.add(same("list_yson", YtType.list(YtPrimitive.YSON), list(null, map(), list())));
    cases.add(same("void", YtPrimitive.VOID, (Object) null));
    return cases;
  }

  @TestFactory
  Stream<DynamicTest> everyTypeRoundTripsThroughWritesAndReads() {
    List<Case> cases = cases();
    YPath consumer = path("typed_consumer");
    fixture.createConsumer(consumer);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> roundTrip(c, consumer)));
  }

  private void roundTrip(Case c, YPath consumer) {
    YPath table = path("t_" + c.name());
    fixture.createOrderedTable(table, List.of(Column.of("v", c.type(), false)), 1);
    fixture.registerConsumer(table, consumer);
    List<Row> viaOutput = new ArrayList<>();
    List<Row> viaTransaction = new ArrayList<>();
    for (int i = 0; i < c.written().size(); i++) {
      Row row = Row.of("$tablet_index", 0L, "v", c.written().get(i));
      (i % 2 == 0 ? viaOutput : viaTransaction).add(row);
    }
    cluster().outputTables().append(table, viaOutput);
    TabletTransaction tx = cluster().transactions().start(Duration.ofSeconds(30));
    tx.insertRows(table, viaTransaction);
    tx.commit();

    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < c.expected().size(); i += 2) {
      expected.add(c.expected().get(i));
    }
    for (int i = 1; i < c.expected().size(); i += 2) {
      expected.add(c.expected().get(i));
    }
    List<Row> expectedRows = new ArrayList<>();
    expected.forEach(v -> expectedRows.add(Row.of("v", v)));

    assertEquals(expectedRows, cluster().outputTables().readAll(table), c.name() + " readAll");
    List<QueueRow> pulled =
        pullToEnd(new QueueSetup(queueId(table), consumerId(consumer)), 0, 0, 1000);
    List<Row> pulledRows = new ArrayList<>();
    pulled.forEach(r -> pulledRows.add(r.data()));
    assertEquals(expectedRows, pulledRows, c.name() + " pull");
  }

  @TestFactory
  Stream<DynamicTest> invalidValuesAreRejectedAndNothingIsWritten() {
    YtType struct =
        YtType.struct(member("a", YtPrimitive.INT64), member("b", opt(YtPrimitive.INT64)));
    List<Case> bad =
        List.of(
            same("int8_above", YtPrimitive.INT8, 128L),
            same("uint8_negative", YtPrimitive.UINT8, -1L),
            same("uint32_above", YtPrimitive.UINT32, 4_294_967_296L),
            same("int64_given_double", YtPrimitive.INT64, 1.0),
            same("required_null", YtPrimitive.INT64, (Object) null),
            same("date_above", YtPrimitive.DATE, DAYS),
            same("utf8_not_utf8", YtPrimitive.UTF8, bytes(0xff)),
            same("json_malformed", YtPrimitive.JSON, "{"),
            same("uuid_15_bytes", YtPrimitive.UUID, new byte[15]),
            same("decimal_too_many_places", YtType.decimal(5, 4), new BigDecimal("3.14159")),
            same("decimal_too_many_digits", YtType.decimal(5, 4), new BigDecimal("10")),
            same("struct_missing_required", struct, map("b", 1L)),
            same("struct_unknown_member", struct, map("a", 1L, "z", 1L)),
            same("tuple_arity", YtType.tuple(YtPrimitive.INT64), list(1L, 2L)),
            same("variant_index", YtType.variantTuple(YtPrimitive.INT64), list(1L, 5L)),
            same("optional_optional_bare", opt(opt(YtPrimitive.BOOL)), true),
            same("void_value", YtPrimitive.VOID, 1L));
    return bad.stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      YPath table = path("bad_" + c.name());
                      fixture.createOrderedTable(
                          table, List.of(Column.of("v", c.type(), false)), 1);
                      Row row = Row.of("$tablet_index", 0L, "v", c.written().get(0));
                      assertThrows(
                          RuntimeException.class,
                          () -> cluster().outputTables().append(table, List.of(row)),
                          c.name());
                      assertEquals(List.of(), cluster().outputTables().readAll(table));
                    }));
  }

  @org.junit.jupiter.api.Test
  void describeCarriesTheTypeV3TypeAndTheOldStyleType() {
    YPath table = path("described");
    YtType listType = YtType.list(opt(YtType.struct(member("x", YtPrimitive.UINT64))));
    fixture.createOrderedTable(
        table,
        List.of(
            Column.of("l", listType, false),
            Column.of("d", YtType.decimal(10, 2), false),
            Column.of("o", opt(YtPrimitive.BOOL), false)),
        1);

    List<TableDescription.Column> columns = cluster().tableMetadata().describe(table).columns();

    assertEquals(listType, columns.get(0).typeV3());
    assertEquals("any", columns.get(0).type());
    assertEquals(YtType.decimal(10, 2), columns.get(1).typeV3());
    assertEquals("string", columns.get(1).type());
    assertEquals(opt(YtPrimitive.BOOL), columns.get(2).typeV3());
    assertEquals("boolean", columns.get(2).type());
    assertEquals(false, columns.get(2).required());
  }
}
