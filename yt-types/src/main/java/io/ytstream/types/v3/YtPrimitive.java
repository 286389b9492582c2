package io.ytstream.types.v3;

import java.util.Map;
import java.util.TreeMap;

/**
 * The primitive types of type_v3. Each has its {@code type_v3} name and its old ({@code type},
 * "v1") name; the two differ only for {@code bool}/{@code boolean} and {@code yson}/{@code any}, as
 * the table in {@code yt/docs/en/_includes/user-guide/storage/data-types.md} lists.
 */
public enum YtPrimitive implements YtType {
  INT8("int8", "int8"),
  INT16("int16", "int16"),
  INT32("int32", "int32"),
  INT64("int64", "int64"),
  UINT8("uint8", "uint8"),
  UINT16("uint16", "uint16"),
  UINT32("uint32", "uint32"),
  UINT64("uint64", "uint64"),
  FLOAT("float", "float"),
  DOUBLE("double", "double"),
  BOOL("bool", "boolean"),
  /** Arbitrary bytes. */
  STRING("string", "string"),
  UTF8("utf8", "utf8"),
  /** An arbitrary YSON value; {@code any} in the old system. */
  YSON("yson", "any"),
  JSON("json", "json"),
  UUID("uuid", "uuid"),
  DATE("date", "date"),
  DATETIME("datetime", "datetime"),
  TIMESTAMP("timestamp", "timestamp"),
  INTERVAL("interval", "interval"),
  DATE32("date32", "date32"),
  DATETIME64("datetime64", "datetime64"),
  TIMESTAMP64("timestamp64", "timestamp64"),
  INTERVAL64("interval64", "interval64"),
  /** The singular type holding only null; nullable by itself. */
  VOID("void", "void"),
  /** The system singular type holding only null; nullable by itself. */
  NULL("null", "null");

  private static final Map<String, YtPrimitive> BY_V3_NAME = new TreeMap<>();
  private static final Map<String, YtPrimitive> BY_V1_NAME = new TreeMap<>();

  static {
    for (YtPrimitive p : values()) {
      BY_V3_NAME.put(p.v3Name, p);
      BY_V1_NAME.put(p.v1Name, p);
    }
  }

  private final String v3Name;
  private final String v1Name;

  YtPrimitive(String v3Name, String v1Name) {
    this.v3Name = v3Name;
    this.v1Name = v1Name;
  }

  /** The name in {@code type_v3}, e.g. {@code bool}, {@code yson}. */
  public String v3Name() {
    return v3Name;
  }

  /** The name in the old {@code type} key, e.g. {@code boolean}, {@code any}. */
  public String v1Name() {
    return v1Name;
  }

  /** The primitive with this {@code type_v3} name, or null. */
  public static YtPrimitive fromV3Name(String name) {
    return BY_V3_NAME.get(name);
  }

  /** The primitive with this old {@code type} name, or null. */
  public static YtPrimitive fromV1Name(String name) {
    return BY_V1_NAME.get(name);
  }

  @Override
  public String describe() {
    return v3Name;
  }

  @Override
  public boolean isNullable() {
    return this == VOID || this == NULL;
  }
}
