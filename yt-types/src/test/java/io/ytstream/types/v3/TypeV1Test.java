package io.ytstream.types.v3;

import static io.ytstream.types.v3.YtType.list;
import static io.ytstream.types.v3.YtType.member;
import static io.ytstream.types.v3.YtType.optional;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The old-style {@code type}/{@code required} rules of
 * yt/docs/en/_includes/user-guide/storage/data-types.md and logical_type.cpp (MakeLogicalType,
 * CastToV1Type).
 */
class TypeV1Test {

  @Test
  void everyPrimitiveRequiredIsItselfAndNotRequiredIsOptional() {
    for (YtPrimitive p : YtPrimitive.values()) {
      if (p.isNullable()) {
        continue;
      }
      assertEquals(p, TypeV1.of(p.v1Name(), true).toTypeV3(), p.v1Name());
      assertEquals(optional(p), TypeV1.of(p.v1Name(), false).toTypeV3(), p.v1Name());
      assertEquals(new TypeV1(p, true), TypeV1.fromTypeV3(p), p.v1Name());
      assertEquals(new TypeV1(p, false), TypeV1.fromTypeV3(optional(p)), p.v1Name());
    }
  }

  @Test
  void derivationTable() {
    assertEquals(optional(YtPrimitive.INT64), TypeV1.of("int64", false).toTypeV3());
    assertEquals(YtPrimitive.INT64, TypeV1.of("int64", true).toTypeV3());
    assertEquals(optional(YtPrimitive.YSON), TypeV1.of("any", false).toTypeV3());
    assertEquals(YtPrimitive.YSON, TypeV1.of("any", true).toTypeV3());
    assertEquals(optional(YtPrimitive.BOOL), TypeV1.of("boolean", false).toTypeV3());
    assertEquals(YtPrimitive.BOOL, TypeV1.of("boolean", true).toTypeV3());
    assertEquals(optional(YtPrimitive.UTF8), TypeV1.of("utf8", false).toTypeV3());
    assertEquals(YtPrimitive.NULL, TypeV1.of("null", false).toTypeV3());
    assertEquals(YtPrimitive.VOID, TypeV1.of("void", false).toTypeV3());
    assertEquals("boolean", TypeV1.of("boolean", true).name());
    assertEquals("any", new TypeV1(YtPrimitive.YSON, false).name());
  }

  @Test
  void nullTypesCannotBeRequired() {
    assertEquals(
        "type \"null\" holds only null and cannot be required",
        assertThrows(IllegalArgumentException.class, () -> TypeV1.of("null", true)).getMessage());
    assertEquals(
        "type \"void\" holds only null and cannot be required",
        assertThrows(IllegalArgumentException.class, () -> TypeV1.of("void", true)).getMessage());
  }

  @Test
  void v3NamesAreNotV1Names() {
    assertEquals(
        "\"bool\" is not a YTsaurus type name in the \"type\" key (it is the type_v3 name of"
            + " \"boolean\")",
        assertThrows(IllegalArgumentException.class, () -> TypeV1.of("bool", true)).getMessage());
    assertEquals(
        "\"yson\" is not a YTsaurus type name in the \"type\" key (it is the type_v3 name of"
            + " \"any\")",
        assertThrows(IllegalArgumentException.class, () -> TypeV1.of("yson", false)).getMessage());
    assertEquals(
        "\"int65\" is not a YTsaurus type name",
        assertThrows(IllegalArgumentException.class, () -> TypeV1.of("int65", false)).getMessage());
  }

  @Test
  void v3ToV1ForCompositeTypes() {
    TypeV1 anyRequired = new TypeV1(YtPrimitive.YSON, true);
    TypeV1 anyOptional = new TypeV1(YtPrimitive.YSON, false);
    assertEquals(new TypeV1(YtPrimitive.NULL, false), TypeV1.fromTypeV3(YtPrimitive.NULL));
    assertEquals(new TypeV1(YtPrimitive.VOID, false), TypeV1.fromTypeV3(YtPrimitive.VOID));
    assertEquals(new TypeV1(YtPrimitive.STRING, true), TypeV1.fromTypeV3(YtType.decimal(10, 2)));
    assertEquals(
        new TypeV1(YtPrimitive.STRING, false), TypeV1.fromTypeV3(optional(YtType.decimal(3, 1))));
    assertEquals(anyOptional, TypeV1.fromTypeV3(optional(optional(YtPrimitive.INT64))));
    assertEquals(anyOptional, TypeV1.fromTypeV3(optional(YtPrimitive.NULL)));
    assertEquals(
        anyOptional, TypeV1.fromTypeV3(optional(YtType.tagged("t", optional(YtPrimitive.INT8)))));
    assertEquals(anyRequired, TypeV1.fromTypeV3(list(YtPrimitive.INT64)));
    assertEquals(anyOptional, TypeV1.fromTypeV3(optional(list(YtPrimitive.INT64))));
    assertEquals(anyRequired, TypeV1.fromTypeV3(YtType.struct(member("a", YtPrimitive.INT64))));
    assertEquals(anyRequired, TypeV1.fromTypeV3(YtType.tuple(YtPrimitive.INT64)));
    assertEquals(
        anyRequired, TypeV1.fromTypeV3(YtType.dict(YtPrimitive.STRING, YtPrimitive.INT64)));
    assertEquals(anyRequired, TypeV1.fromTypeV3(YtType.variantTuple(YtPrimitive.INT64)));
    assertEquals(
        anyRequired, TypeV1.fromTypeV3(YtType.variantStruct(member("a", YtPrimitive.INT64))));
    assertEquals(
        new TypeV1(YtPrimitive.STRING, true),
        TypeV1.fromTypeV3(YtType.tagged("image/png", YtPrimitive.STRING)));
    assertEquals(
        new TypeV1(YtPrimitive.STRING, false),
        TypeV1.fromTypeV3(YtType.tagged("image/png", optional(YtPrimitive.STRING))));
    assertEquals(
        new TypeV1(YtPrimitive.UTF8, false),
        TypeV1.fromTypeV3(optional(YtType.tagged("x", YtPrimitive.UTF8))));
  }
}
