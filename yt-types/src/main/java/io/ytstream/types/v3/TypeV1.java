package io.ytstream.types.v3;

import java.util.Objects;

/**
 * A column type in the old system: the {@code type} key (a primitive name such as {@code int64},
 * {@code boolean}, {@code any}) and the {@code required} flag.
 *
 * <p>The rules follow {@code yt/docs/en/_includes/user-guide/storage/data-types.md} ("Primitive
 * types": {@code type=T; required=%false} is {@code optional<T>}) and the server's conversions in
 * {@code yt/yt/client/table_client/logical_type.cpp} ({@code MakeLogicalType}, {@code
 * CastToV1Type}):
 *
 * <ul>
 *   <li>v1 to v3: {@code T, required} is {@code T}; {@code T, not required} is {@code optional<T>};
 *       {@code null} and {@code void} stay themselves and cannot be required.
 *   <li>v3 to v1: a primitive is itself, required unless it is {@code null}/{@code void}; {@code
 *       optional<T>} of a non-nullable {@code T} is {@code T}'s v1 type, not required; {@code
 *       optional} of a nullable type is {@code any}, not required; {@code tagged} is its item's;
 *       {@code decimal} is {@code string}, required; list, struct, tuple, variant and dict are
 *       {@code any}, required.
 * </ul>
 */
public record TypeV1(YtPrimitive type, boolean required) {

  public TypeV1 {
    Objects.requireNonNull(type, "v1 type");
    if (required && type.isNullable()) {
      throw new IllegalArgumentException(
          "type \"" + type.v1Name() + "\" holds only null and cannot be required");
    }
  }

  /** The old-style type with this {@code type} name, e.g. {@code ("int64", false)}. */
  public static TypeV1 of(String v1Name, boolean required) {
    YtPrimitive type = YtPrimitive.fromV1Name(v1Name);
    if (type == null) {
      throw new IllegalArgumentException(
          "\""
              + v1Name
              + "\" is not a YTsaurus type name"
              + (YtPrimitive.fromV3Name(v1Name) != null
                  ? " in the \"type\" key (it is the type_v3 name of \""
                      + YtPrimitive.fromV3Name(v1Name).v1Name()
                      + "\")"
                  : ""));
    }
    return new TypeV1(type, required);
  }

  /** The {@code type} key's value, e.g. {@code boolean}, {@code any}. */
  public String name() {
    return type.v1Name();
  }

  /** The type_v3 type this old-style type means. */
  public YtType toTypeV3() {
    if (required || type.isNullable()) {
      return type;
    }
    return new YtOptional(type);
  }

  /** The old-style type the server reports next to a type_v3 type. */
  public static TypeV1 fromTypeV3(YtType type) {
    if (type instanceof YtPrimitive p) {
      return new TypeV1(p, !p.isNullable());
    }
    if (type instanceof YtDecimal) {
      return new TypeV1(YtPrimitive.STRING, true);
    }
    if (type instanceof YtOptional o) {
      if (o.item().isNullable()) {
        return new TypeV1(YtPrimitive.YSON, false);
      }
      return new TypeV1(fromTypeV3(o.item()).type(), false);
    }
    if (type instanceof YtTagged t) {
      return fromTypeV3(t.item());
    }
    return new TypeV1(YtPrimitive.YSON, true);
  }
}
