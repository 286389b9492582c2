package io.ytstream.types.v3;

import io.ytstream.types.schema.TableSchemaJson;
import java.util.List;

/**
 * A YTsaurus column type in the type_v3 system: a primitive, a decimal, or a composite type nested
 * to any depth. Values are immutable and compare by structure, as the server compares types (a
 * {@code tagged} type differs from its item).
 *
 * <p>Follows the type list and the {@code type_v3} shapes of the YTsaurus documentation, {@code
 * yt/docs/en/_includes/user-guide/storage/data-types.md} ("Describing types in a schema"). The JSON
 * form is read and written by {@link TableSchemaJson}.
 */
public sealed interface YtType
    permits YtPrimitive,
        YtDecimal,
        YtOptional,
        YtList,
        YtStruct,
        YtTuple,
        YtDict,
        YtVariantStruct,
        YtVariantTuple,
        YtTagged {

  /**
   * The type in the documentation's notation, e.g. {@code optional<list<int64>>}, {@code
   * struct<a:int64;b:optional<utf8>>}, {@code decimal(10,2)}, {@code tagged<"image/png",string>}.
   */
  String describe();

  /**
   * Whether the type admits the null value: {@code null}, {@code void}, {@code optional<T>}, and a
   * {@code tagged} type over one of these (the server's {@code IsNullable}).
   */
  boolean isNullable();

  static YtType optional(YtType item) {
    return new YtOptional(item);
  }

  static YtType list(YtType item) {
    return new YtList(item);
  }

  static YtType struct(YtMember... members) {
    return new YtStruct(List.of(members));
  }

  static YtType tuple(YtType... elements) {
    return new YtTuple(List.of(elements));
  }

  static YtType dict(YtType key, YtType value) {
    return new YtDict(key, value);
  }

  static YtType variantStruct(YtMember... members) {
    return new YtVariantStruct(List.of(members));
  }

  static YtType variantTuple(YtType... elements) {
    return new YtVariantTuple(List.of(elements));
  }

  static YtType tagged(String tag, YtType item) {
    return new YtTagged(tag, item);
  }

  static YtType decimal(int precision, int scale) {
    return new YtDecimal(precision, scale);
  }

  static YtMember member(String name, YtType type) {
    return new YtMember(name, type);
  }
}
