package io.ytstream.types.value;

import static io.ytstream.types.v3.YtType.member;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YsonRepresentationTest {

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  @Test
  void decimalBinaryFormFollowsTheDocumentedExample() {
    // data-types.md: 3.1415 as decimal(5,4) is "\x80\x00\x7A\xB7".
    YtDecimal d54 = new YtDecimal(5, 4);
    assertArrayEquals(
        bytes(0x80, 0x00, 0x7a, 0xb7), DecimalBinary.encode(d54, new BigDecimal("3.1415")));
    assertEquals(
        new BigDecimal("3.1415"), DecimalBinary.decode(d54, bytes(0x80, 0x00, 0x7a, 0xb7)));
    assertArrayEquals(
        bytes(0x7f, 0xff, 0xff, 0xff), DecimalBinary.encode(d54, new BigDecimal("-0.0001")));
    assertEquals(8, DecimalBinary.encode(new YtDecimal(18, 0), BigDecimal.ONE).length);
    assertEquals(16, DecimalBinary.encode(new YtDecimal(35, 0), BigDecimal.ONE).length);
    YtDecimal d76 = new YtDecimal(76, 0);
    BigDecimal min = new BigDecimal("-" + "9".repeat(76));
    assertEquals(min, DecimalBinary.decode(d76, DecimalBinary.encode(d76, min)));
    // nan is 0x7FFFFFFE in 4 bytes after the top bit flip: not representable.
    assertThrows(
        IllegalArgumentException.class,
        () -> DecimalBinary.decode(d54, bytes(0xff, 0xff, 0xff, 0xfe)));
    assertThrows(IllegalArgumentException.class, () -> DecimalBinary.decode(d54, bytes(0x80, 0)));
  }

  @Test
  void compositeValuesUseTheDocumentedDefaultModes() {
    YtType type =
        YtType.struct(
            member("u", YtPrimitive.UINT8),
            member("o", YtType.optional(YtType.optional(YtPrimitive.BOOL))),
            member("d", YtType.dict(YtPrimitive.UTF8, YtPrimitive.INT64)),
            member("v", YtType.variantStruct(member("x", YtPrimitive.INT8))),
            member("w", YtType.variantTuple(YtPrimitive.INT8, YtType.decimal(5, 4))),
            member(
                "t", YtType.tagged("tag", YtType.tuple(YtPrimitive.DATE, YtPrimitive.INTERVAL))));
    Map<String, Object> value =
        new java.util.LinkedHashMap<>(
            Map.of(
                "u", 7L,
                "o", Arrays.asList((Object) null),
                "d", List.of(List.of("k", 1L), List.of("k", 2L)),
                "v", List.of("x", 3L),
                "w", List.of(1L, new BigDecimal("3.1415")),
                "t", List.of(5L, -6L)));
    String text = Yson.toText(YsonRepresentation.toYson(type, value));
    for (String part :
        List.of(
            "\"u\"=7u",
            "\"o\"=[#]",
            "\"d\"=[[\"k\";1];[\"k\";2]]",
            "\"v\"=[\"x\";3]",
            "\"w\"=[1;\"\\x80\\x00z\\xb7\"]",
            "\"t\"=[5u;-6]")) {
      assertTrue(text.contains(part), part + " in " + text);
    }
    Object back =
        YsonRepresentation.fromYson(type, Yson.parse(Yson.toBinary(Yson.parse(text))), "v");
    assertEquals(YtValues.normalize(type, value), back);
  }

  @Test
  void readsPositionalStructsVariantIndexesAndDictMapsToo() {
    YtType struct =
        YtType.struct(
            member("a", YtPrimitive.INT64), member("b", YtType.optional(YtPrimitive.UTF8)));
    assertEquals(
        YtValues.normalize(struct, Map.of("a", 1L)),
        YsonRepresentation.fromYson(struct, Yson.parse("[1]"), "v"));
    YtType dict = YtType.dict(YtPrimitive.UTF8, YtPrimitive.UINT64);
    assertEquals(
        List.of(List.of("k", -1L)),
        YsonRepresentation.fromYson(dict, Yson.parse("{k=18446744073709551615u}"), "v"));
    YtType variant =
        YtType.variantStruct(member("x", YtPrimitive.INT8), member("y", YtPrimitive.UTF8));
    assertEquals(
        List.of("y", "z"), YsonRepresentation.fromYson(variant, Yson.parse("[1u;z]"), "v"));
  }

  @Test
  void errorsNameThePathAndTheProblem() {
    YtType type = YtType.struct(member("l", YtType.list(YtPrimitive.UINT8)));
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> YsonRepresentation.fromYson(type, Yson.parse("{l=[1;-2]}"), "column c"))
            .getMessage();
    assertEquals("column c.l[1]: -2 is out of range for uint8", message);
    String unknown =
        assertThrows(
                IllegalArgumentException.class,
                () -> YsonRepresentation.fromYson(type, Yson.parse("{m=1}"), "column c"))
            .getMessage();
    assertTrue(unknown.contains("has no member \"m\""), unknown);
  }
}
