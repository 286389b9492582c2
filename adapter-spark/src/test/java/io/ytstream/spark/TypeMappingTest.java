package io.ytstream.spark;

import static io.ytstream.types.v3.YtType.member;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.sink.YtWriteSpec;
import io.ytstream.spark.types.SparkToYt;
import io.ytstream.spark.types.TypeV3Options;
import io.ytstream.spark.types.ValueConverter;
import io.ytstream.spark.types.YtToSpark;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The type mapping and the flags without a Spark session: types, conversions, error messages. */
class TypeMappingTest {

  private static DataType read(YtType type) {
    return YtToSpark.column(type, true).type();
  }

  private static StructType struct(String ddl) {
    return StructType.fromDDL(ddl);
  }

  @Test
  void eachPrimitiveGetsASparkTypeThatHoldsItsRange() {
    Map<YtPrimitive, DataType> expected =
        Map.ofEntries(
            Map.entry(YtPrimitive.INT8, DataTypes.ByteType),
            Map.entry(YtPrimitive.INT16, DataTypes.ShortType),
            Map.entry(YtPrimitive.INT32, DataTypes.IntegerType),
            Map.entry(YtPrimitive.INT64, DataTypes.LongType),
            Map.entry(YtPrimitive.UINT8, DataTypes.ShortType),
            Map.entry(YtPrimitive.UINT16, DataTypes.IntegerType),
            Map.entry(YtPrimitive.UINT32, DataTypes.LongType),
            Map.entry(YtPrimitive.UINT64, DataTypes.createDecimalType(20, 0)),
            Map.entry(YtPrimitive.FLOAT, DataTypes.FloatType),
            Map.entry(YtPrimitive.DOUBLE, DataTypes.DoubleType),
            Map.entry(YtPrimitive.BOOL, DataTypes.BooleanType),
            Map.entry(YtPrimitive.STRING, DataTypes.StringType),
            Map.entry(YtPrimitive.UTF8, DataTypes.StringType),
            Map.entry(YtPrimitive.JSON, DataTypes.StringType),
            Map.entry(YtPrimitive.UUID, DataTypes.StringType),
            Map.entry(YtPrimitive.YSON, DataTypes.BinaryType),
            Map.entry(YtPrimitive.DATE, DataTypes.DateType),
            Map.entry(YtPrimitive.DATE32, DataTypes.DateType),
            Map.entry(YtPrimitive.DATETIME, DataTypes.TimestampType),
            Map.entry(YtPrimitive.DATETIME64, DataTypes.TimestampType),
            Map.entry(YtPrimitive.TIMESTAMP, DataTypes.TimestampType),
            Map.entry(YtPrimitive.TIMESTAMP64, DataTypes.TimestampType),
            Map.entry(YtPrimitive.INTERVAL, DataTypes.LongType),
            Map.entry(YtPrimitive.INTERVAL64, DataTypes.LongType),
            Map.entry(YtPrimitive.VOID, DataTypes.NullType),
            Map.entry(YtPrimitive.NULL, DataTypes.NullType));
    for (YtPrimitive p : YtPrimitive.values()) {
      assertEquals(expected.get(p), read(p), p.v3Name());
      // The same with type_v3 off: primitives are not composite (optional<void> is: its item is
      // nullable).
      if (!p.isNullable()) {
        assertEquals(
            expected.get(p), YtToSpark.column(YtType.optional(p), false).type(), p.v3Name());
      }
    }
  }

  @Test
  void compositesMapToNestedSparkTypesWithTypeV3AndToBinaryWithout() {
    YtType composite =
        YtType.struct(
            member("a", YtType.list(YtType.optional(YtPrimitive.UINT8))),
            member("t", YtType.tuple(YtPrimitive.INT64, YtPrimitive.UTF8)),
            member("d", YtType.dict(YtPrimitive.UTF8, YtPrimitive.DOUBLE)),
            member("n", YtType.dict(YtType.optional(YtPrimitive.INT32), YtPrimitive.BOOL)),
            member(
                "v",
                YtType.variantStruct(member("x", YtPrimitive.INT8), member("y", YtPrimitive.UTF8))),
            member("w", YtType.variantTuple(YtPrimitive.INT8, YtPrimitive.UTF8)),
            member("o", YtType.optional(YtType.optional(YtPrimitive.BOOL))),
            member("g", YtType.tagged("tag", YtType.decimal(40, 2))),
            member("e", YtType.decimal(12, 3)));
    StructType mapped = (StructType) read(composite);
    assertEquals(
        "struct<a:array<smallint>,t:struct<_1:bigint,_2:string>,d:map<string,double>,"
            + "n:array<struct<key:int,value:boolean>>,v:struct<_vx:tinyint,_vy:string>,"
            + "w:struct<_v_1:tinyint,_v_2:string>,o:struct<value:boolean>,g:string,"
            + "e:decimal(12,3)>",
        mapped.catalogString());
    // Nullability follows the types: optional members and variant alternatives are nullable.
    assertEquals(
        "a:false t._1:false d:false n.key:true v._vx:true o:true o.value:true",
        "a:"
            + mapped.apply("a").nullable()
            + " t._1:"
            + ((StructType) mapped.apply("t").dataType()).apply("_1").nullable()
            + " d:"
            + ((org.apache.spark.sql.types.MapType) mapped.apply("d").dataType())
                .valueContainsNull()
            + " n.key:"
            + ((StructType)
                    ((org.apache.spark.sql.types.ArrayType) mapped.apply("n").dataType())
                        .elementType())
                .apply("key")
                .nullable()
            + " v._vx:"
            + ((StructType) mapped.apply("v").dataType()).apply("_vx").nullable()
            + " o:"
            + mapped.apply("o").nullable()
            + " o.value:"
            + ((StructType) mapped.apply("o").dataType()).apply("value").nullable());
    assertEquals(DataTypes.BinaryType, YtToSpark.column(composite, false).type());
    assertEquals(
        DataTypes.BinaryType,
        YtToSpark.column(YtType.optional(YtType.list(YtPrimitive.INT64)), false).type());
    assertEquals(
        DataTypes.createDecimalType(12, 3),
        YtToSpark.column(YtType.tagged("t", YtType.decimal(12, 3)), false).type());
  }

  @Test
  void compositeValuesWithoutTypeV3AreTheirYsonRepresentation() {
    YtType type =
        YtType.struct(member("u", YtPrimitive.UINT64), member("l", YtType.list(YtPrimitive.UTF8)));
    byte[] yson =
        (byte[])
            YtToSpark.column(type, false).converter().convert(Map.of("u", -1L, "l", List.of("a")));
    assertEquals("{\"u\"=18446744073709551615u;\"l\"=[\"a\"]}", Yson.toText(Yson.parse(yson)));
  }

  @Test
  void uint64ValuesAboveLongMaxFitDecimal20AndGoBack() {
    Object read = YtToSpark.column(YtPrimitive.UINT64, true).converter().convert(-1L);
    assertEquals(new BigDecimal("18446744073709551615"), ((Decimal) read).toJavaBigDecimal());
    ValueConverter write =
        SparkToYt.column("u", YtPrimitive.UINT64, DataTypes.createDecimalType(20, 0), false);
    assertEquals(-1L, write.convert(read));
    String tooBig =
        assertThrows(
                IllegalArgumentException.class,
                () -> write.convert(Decimal.apply(new BigDecimal("18446744073709551616"))))
            .getMessage();
    assertTrue(tooBig.contains("u: 18446744073709551616 is out of range for uint64"), tooBig);
    ValueConverter fromLong = SparkToYt.column("u", YtPrimitive.UINT64, DataTypes.LongType, false);
    String negative =
        assertThrows(IllegalArgumentException.class, () -> fromLong.convert(-5L)).getMessage();
    assertTrue(negative.contains("u: -5 is out of range for uint64"), negative);
  }

  @Test
  void valuesOutOfTheColumnsRangeNameTheColumn() {
    ValueConverter write =
        SparkToYt.column("small", YtPrimitive.UINT8, DataTypes.IntegerType, false);
    assertEquals(255L, write.convert(255));
    String message =
        assertThrows(IllegalArgumentException.class, () -> write.convert(256)).getMessage();
    assertEquals("column small: 256 is out of range for uint8 [0, 255]", message);
    ValueConverter required = SparkToYt.column("r", YtPrimitive.INT64, DataTypes.LongType, false);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> required.convert(null))
            .getMessage()
            .contains("column r: null is not a value of int64"));
  }

  @Test
  void variantsSetExactlyOneFieldOrTheOnlyNullableAlternative() {
    YtType variant =
        YtType.variantStruct(
            member("a", YtPrimitive.INT64), member("b", YtType.optional(YtPrimitive.UTF8)));
    ValueConverter write = SparkToYt.column("v", variant, struct("_va bigint, _vb string"), true);
    assertEquals(List.of("a", 5L), write.convert(new GenericInternalRow(new Object[] {5L, null})));
    assertEquals(
        java.util.Arrays.asList("b", null),
        write.convert(new GenericInternalRow(new Object[] {null, null})));
    String both =
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    write.convert(
                        new GenericInternalRow(new Object[] {5L, UTF8String.fromString("x")})))
            .getMessage();
    assertTrue(both.contains("sets exactly one field; this one sets several"), both);
  }

  @Test
  void uuidIsTextOfItsSixteenBytes() {
    byte[] bytes = TypeCases.bytes(0xff, 0xfe, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x7f);
    Object text = YtToSpark.column(YtPrimitive.UUID, true).converter().convert(bytes);
    assertEquals("fffe0001-0203-0405-0607-08090a0b807f", text.toString());
    ValueConverter back = SparkToYt.column("id", YtPrimitive.UUID, DataTypes.StringType, false);
    assertArrayEquals(bytes, (byte[]) back.convert(text));
    String bad =
        assertThrows(
                IllegalArgumentException.class,
                () -> back.convert(UTF8String.fromString("1-2-3-4-5")))
            .getMessage();
    assertTrue(bad.contains("'1-2-3-4-5' is not a uuid"), bad);
  }

  private static YtWriteSpec check(YtType columnType, StructType df, boolean typeV3) {
    TableDescription table =
        new TableDescription(
            YPath.of("//out"), false, 1, List.of(Column.of("c", columnType, false)));
    return YtWriteSpec.check(new ClusterRef("inmemory:x", Map.of()), table, df, 10, typeV3);
  }

  @Test
  void theSinksCheckNamesTheColumnBothTypesAndTheFix() {
    String wrongType =
        assertThrows(
                IllegalArgumentException.class,
                () -> check(YtPrimitive.INT64, struct("c struct<a: int>"), true))
            .getMessage();
    assertEquals(
        "schema mismatch: column 'c' is struct<a:int> in the DataFrame but int64 in //out (c:"
            + " Spark struct<a:int> cannot be written to int64). To fix: cast it, e.g."
            + " col(\"c\").cast(\"long\"), or change the table's schema",
        wrongType);

    YtType struct = YtType.struct(member("a", YtPrimitive.INT64), member("b", YtPrimitive.UTF8));
    String withoutTypeV3 =
        assertThrows(
                IllegalArgumentException.class,
                () -> check(struct, struct("c struct<a: bigint, b: string>"), false))
            .getMessage();
    assertTrue(withoutTypeV3.contains("column 'c' is struct<a:bigint,b:string>"), withoutTypeV3);
    assertTrue(withoutTypeV3.contains("struct<a:int64;b:utf8> in //out"), withoutTypeV3);
    assertTrue(withoutTypeV3.contains(".option(\"write_type_v3\", \"true\")"), withoutTypeV3);

    // With type_v3 the same DataFrame fits; binary YSON fits in both modes.
    assertEquals(1, check(struct, struct("c struct<a: bigint, b: string>"), true).columns().size());
    assertEquals(1, check(struct, struct("c binary"), false).columns().size());

    String missingMember =
        assertThrows(
                IllegalArgumentException.class,
                () -> check(struct, struct("c struct<a: bigint>"), true))
            .getMessage();
    assertTrue(
        missingMember.contains("member b of struct<a:int64;b:utf8> is required"), missingMember);
    String nested =
        assertThrows(
                IllegalArgumentException.class,
                () -> check(struct, struct("c struct<a: string, b: string>"), true))
            .getMessage();
    assertTrue(nested.contains("c.a: Spark string cannot be written to int64"), nested);
  }

  @Test
  void aQueuesSystemColumnsInTheDataFrameAreLeftOut() {
    YtWriteSpec spec = check(YtPrimitive.INT64, struct("c bigint, `$timestamp` bigint"), false);
    assertEquals(true, spec.columns().get(0).isWritten());
    assertEquals(1L, spec.columns().get(0).toYt(1L));
    assertEquals(false, spec.columns().get(1).isWritten(), "$timestamp is the queue's, not ours");
  }

  @Test
  void anOptionBeatsTheSessionSettingAndBadValuesSayWhatToDo() {
    YtOptions none = YtOptions.of(Map.of());
    YtOptions on = YtOptions.of(Map.of("parsing_type_v3", "true"));
    YtOptions off = YtOptions.of(Map.of("PARSING_TYPE_V3", "False"));
    String opt = YtOptions.PARSING_TYPE_V3;
    String setting = TypeV3Options.READ_SETTING;
    assertEquals(false, TypeV3Options.flag(none, opt, setting, Optional.empty()));
    assertEquals(true, TypeV3Options.flag(none, opt, setting, Optional.of("true")));
    assertEquals(true, TypeV3Options.flag(on, opt, setting, Optional.of("false")));
    assertEquals(false, TypeV3Options.flag(off, opt, setting, Optional.of("true")));
    String badOption =
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    TypeV3Options.flag(
                        YtOptions.of(Map.of("write_type_v3", "yes")),
                        YtOptions.WRITE_TYPE_V3,
                        TypeV3Options.WRITE_SETTING,
                        Optional.empty()))
            .getMessage();
    assertTrue(
        badOption.startsWith(
            "option write_type_v3 must be true or false, got 'yes'. Use"
                + " .option(\"write_type_v3\", \"true\")"),
        badOption);
    String badSetting =
        assertThrows(
                IllegalArgumentException.class,
                () -> TypeV3Options.flag(none, opt, setting, Optional.of("1")))
            .getMessage();
    assertTrue(
        badSetting.startsWith(
            "setting spark.yt.read.typeV3.enabled must be true or false, got '1'"),
        badSetting);
  }
}
