package io.ytstream.types.v3;

import static io.ytstream.types.v3.YtType.member;
import static io.ytstream.types.v3.YtType.optional;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class YtTypeTest {

  private static String error(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void describeUsesTheDocumentationNotation() {
    assertEquals("int64", YtPrimitive.INT64.describe());
    assertEquals("optional<optional<bool>>", optional(optional(YtPrimitive.BOOL)).describe());
    assertEquals(
        "struct<Foo:int64;Bar:optional<utf8>>",
        YtType.struct(member("Foo", YtPrimitive.INT64), member("Bar", optional(YtPrimitive.UTF8)))
            .describe());
    assertEquals(
        "variant<Foo:int64;Bar:optional<utf8>>",
        YtType.variantStruct(
                member("Foo", YtPrimitive.INT64), member("Bar", optional(YtPrimitive.UTF8)))
            .describe());
    assertEquals(
        "tuple<int64;optional<utf8>>",
        YtType.tuple(YtPrimitive.INT64, optional(YtPrimitive.UTF8)).describe());
    assertEquals(
        "variant<int64;optional<utf8>>",
        YtType.variantTuple(YtPrimitive.INT64, optional(YtPrimitive.UTF8)).describe());
    assertEquals(
        "dict<int32;string>", YtType.dict(YtPrimitive.INT32, YtPrimitive.STRING).describe());
    assertEquals("list<double>", YtType.list(YtPrimitive.DOUBLE).describe());
    assertEquals("decimal(10,2)", YtType.decimal(10, 2).describe());
    assertEquals(
        "tagged<\"image/svg\",string>", YtType.tagged("image/svg", YtPrimitive.STRING).describe());
    assertEquals("struct<>", YtType.struct().describe());
  }

  @Test
  void nullability() {
    List<YtPrimitive> nullable = new ArrayList<>();
    for (YtPrimitive p : YtPrimitive.values()) {
      if (p.isNullable()) {
        nullable.add(p);
      }
    }
    assertEquals(List.of(YtPrimitive.VOID, YtPrimitive.NULL), nullable);
    assertTrue(optional(YtPrimitive.INT8).isNullable());
    assertTrue(YtType.tagged("t", optional(YtPrimitive.INT8)).isNullable());
    assertTrue(YtType.tagged("t", YtPrimitive.NULL).isNullable());
    assertFalse(YtType.tagged("t", YtPrimitive.INT8).isNullable());
    assertFalse(YtType.list(optional(YtPrimitive.INT8)).isNullable());
    assertFalse(YtType.struct().isNullable());
    assertFalse(YtType.tuple().isNullable());
    assertFalse(YtType.variantTuple(YtPrimitive.NULL).isNullable());
    assertFalse(YtType.variantStruct(member("a", YtPrimitive.NULL)).isNullable());
    assertFalse(YtType.dict(YtPrimitive.INT8, YtPrimitive.NULL).isNullable());
    assertFalse(YtType.decimal(1, 0).isNullable());
  }

  @Test
  void primitiveNames() {
    assertEquals(26, YtPrimitive.values().length);
    for (YtPrimitive p : YtPrimitive.values()) {
      assertEquals(p, YtPrimitive.fromV3Name(p.v3Name()));
      assertEquals(p, YtPrimitive.fromV1Name(p.v1Name()));
      boolean differs = p == YtPrimitive.BOOL || p == YtPrimitive.YSON;
      assertEquals(differs, !p.v1Name().equals(p.v3Name()), p.name());
    }
    assertEquals("boolean", YtPrimitive.BOOL.v1Name());
    assertEquals("any", YtPrimitive.YSON.v1Name());
    assertEquals(null, YtPrimitive.fromV3Name("any"));
    assertEquals(null, YtPrimitive.fromV1Name("yson"));
  }

  @Test
  void typesCompareByStructureAndTagsMatter() {
    assertEquals(
        YtType.struct(member("a", YtType.list(YtPrimitive.INT64))),
        YtType.struct(member("a", YtType.list(YtPrimitive.INT64))));
    assertNotEquals(YtType.tagged("t", YtPrimitive.INT64), YtPrimitive.INT64);
    assertNotEquals(YtType.tagged("t", YtPrimitive.INT64), YtType.tagged("u", YtPrimitive.INT64));
    assertNotEquals(YtType.tuple(YtPrimitive.INT64), YtType.variantTuple(YtPrimitive.INT64));
    assertNotEquals(
        YtType.struct(member("a", YtPrimitive.INT64), member("b", YtPrimitive.INT64)),
        YtType.struct(member("b", YtPrimitive.INT64), member("a", YtPrimitive.INT64)));
  }

  @Test
  void decimalBounds() {
    assertEquals(new YtDecimal(1, 0), YtType.decimal(1, 0));
    assertEquals(new YtDecimal(76, 76), YtType.decimal(76, 76));
    assertEquals("decimal precision must be in [1, 76], got 0", error(() -> YtType.decimal(0, 0)));
    assertEquals(
        "decimal precision must be in [1, 76], got 77", error(() -> YtType.decimal(77, 0)));
    assertEquals(
        "decimal scale must be in [0, precision=5], got 6", error(() -> YtType.decimal(5, 6)));
    assertEquals(
        "decimal scale must be in [0, precision=5], got -1", error(() -> YtType.decimal(5, -1)));
  }

  @Test
  void memberAndTagRules() {
    assertEquals("member name must not be empty", error(() -> member("", YtPrimitive.INT64)));
    String longest = "x".repeat(256);
    assertEquals(longest, member(longest, YtPrimitive.INT64).name());
    assertEquals(
        "member name is 257 bytes of UTF-8, more than the limit 256",
        error(() -> member("x".repeat(257), YtPrimitive.INT64)));
    assertEquals(
        "member name is 258 bytes of UTF-8, more than the limit 256",
        error(() -> member("\u00e9".repeat(129), YtPrimitive.INT64)));
    assertEquals(
        "struct member name \"a\" is used twice (again at member #2)",
        error(
            () ->
                YtType.struct(
                    member("a", YtPrimitive.INT64),
                    member("b", YtPrimitive.INT64),
                    member("a", YtPrimitive.STRING))));
    assertEquals(
        "variant member name \"a\" is used twice (again at member #1)",
        error(
            () ->
                YtType.variantStruct(
                    member("a", YtPrimitive.INT64), member("a", YtPrimitive.INT64))));
    assertEquals(
        "tag of a tagged type must not be empty",
        error(() -> YtType.tagged("", YtPrimitive.INT64)));
  }

  @Test
  void membersAreCopied() {
    List<YtMember> members = new ArrayList<>(List.of(member("a", YtPrimitive.INT64)));
    YtStruct struct = new YtStruct(members);
    members.add(member("b", YtPrimitive.INT64));
    assertEquals(1, struct.members().size());
  }
}
