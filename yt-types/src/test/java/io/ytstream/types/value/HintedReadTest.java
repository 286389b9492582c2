package io.ytstream.types.value;

import static io.ytstream.types.v3.YtType.decimal;
import static io.ytstream.types.v3.YtType.list;
import static io.ytstream.types.v3.YtType.member;
import static io.ytstream.types.v3.YtType.optional;
import static io.ytstream.types.v3.YtType.struct;
import static io.ytstream.types.v3.YtType.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HintedReadTest {

  private static final YtType ADDRESS =
      struct(
          member("street", optional(YtPrimitive.STRING)),
          member("zipcode", optional(YtPrimitive.INT32)));

  private static HintedRead accepted(YtType column, YtType target) {
    return assertInstanceOf(HintedRead.Accepted.class, HintedRead.decide(column, target)).read();
  }

  private static String refused(YtType column, YtType target) {
    return assertInstanceOf(HintedRead.Refused.class, HintedRead.decide(column, target)).reason();
  }

  @Test
  void aYsonColumnIsDecodedIntoTheHintedStructReadingOnlyTheKeysItNames() {
    HintedRead read = accepted(optional(YtPrimitive.YSON), ADDRESS);
    assertEquals(HintedRead.Way.FROM_YSON, read.way());

    Object value = Yson.parse("<source=old>{street=\"123 Main St\"; zipcode=12345; floor=3}");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("street", "123 Main St");
    expected.put("zipcode", 12345L);
    assertEquals(expected, read.convert(value, "column address"));

    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("street", null);
    partial.put("zipcode", 11111L);
    assertEquals(partial, read.convert(Yson.parse("{zipcode=11111}"), "column address"));
    assertNull(read.convert(null, "column address"));
  }

  @Test
  void aYsonValueThatDoesNotFitTheHintFailsNamingItsPlace() {
    HintedRead read = accepted(YtPrimitive.YSON, ADDRESS);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> read.convert(Yson.parse("{zipcode=9999999999}"), "column address"));
    assertTrue(e.getMessage().contains("column address.zipcode"), e.getMessage());
    assertTrue(e.getMessage().contains("out of range for int32"), e.getMessage());

    HintedRead required = accepted(YtPrimitive.YSON, struct(member("n", YtPrimitive.INT64)));
    assertThrows(
        IllegalArgumentException.class, () -> required.convert(Yson.parse("{m=1}"), "column c"));
  }

  @Test
  void aYsonKeepsAttributesWhereTheHintSaysYson() {
    HintedRead read = accepted(YtPrimitive.YSON, struct(member("raw", YtPrimitive.YSON)));
    Object converted = read.convert(Yson.parse("{raw=<a=1>5}"), "column c");
    assertInstanceOf(YsonAttributed.class, ((Map<?, ?>) converted).get("raw"));
  }

  @Test
  void aCompositeColumnIsReadThroughItsYsonRepresentation() {
    YtType column =
        optional(
            struct(
                member("a", YtPrimitive.INT64),
                member("b", list(YtPrimitive.UINT8)),
                member("d", decimal(10, 2))));
    HintedRead read =
        accepted(column, struct(member("b", optional(list(optional(YtPrimitive.INT16))))));
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("a", 7L);
    value.put("b", List.of(1L, 255L));
    value.put("d", new BigDecimal("1.50"));
    assertEquals(Map.of("b", List.of(1L, 255L)), read.convert(value, "column c"));
  }

  @Test
  void aPrimitiveColumnIsWidenedWhereEveryValueFits() {
    assertEquals(
        HintedRead.Way.AS_IS, accepted(optional(YtPrimitive.INT32), YtPrimitive.INT64).way());
    assertEquals(
        HintedRead.Way.AS_IS, accepted(tagged("t", YtPrimitive.UINT32), YtPrimitive.INT64).way());
    assertEquals(HintedRead.Way.AS_IS, accepted(YtPrimitive.UTF8, YtPrimitive.STRING).way());
    assertEquals(HintedRead.Way.AS_IS, accepted(YtPrimitive.FLOAT, YtPrimitive.DOUBLE).way());

    assertEquals(7.0, accepted(YtPrimitive.INT32, YtPrimitive.DOUBLE).convert(7L, "c"));
    assertEquals(
        new BigDecimal("18446744073709551615.0"),
        accepted(YtPrimitive.UINT64, decimal(22, 1)).convert(-1L, "c"));
    assertEquals(
        new BigDecimal("-128"), accepted(YtPrimitive.INT8, decimal(3, 0)).convert(-128L, "c"));
  }

  @Test
  void narrowingAndOtherKindsAreRefusedSayingWhy() {
    assertEquals(
        "int64 values do not all fit int32", refused(YtPrimitive.INT64, YtPrimitive.INT32));
    assertEquals(
        "uint64 values do not all fit int64", refused(YtPrimitive.UINT64, YtPrimitive.INT64));
    assertEquals("int8 values do not all fit uint8", refused(YtPrimitive.INT8, YtPrimitive.UINT8));
    assertEquals(
        "int64 values do not all fit decimal(19,1)", refused(YtPrimitive.INT64, decimal(19, 1)));
    assertEquals(
        "int64 values do not all fit double", refused(YtPrimitive.INT64, YtPrimitive.DOUBLE));
    assertTrue(refused(YtPrimitive.STRING, YtPrimitive.INT64).contains("holds no int64"));
    assertTrue(refused(YtPrimitive.STRING, YtPrimitive.UTF8).contains("holds no utf8"));
    assertTrue(refused(decimal(10, 2), YtPrimitive.DOUBLE).contains("holds no double"));
  }
}
