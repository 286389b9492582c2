package io.ytstream.types.schema;

import io.ytstream.types.json.JsonReader;
import io.ytstream.types.json.JsonWriter;
import io.ytstream.types.v3.TypeV1;
import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.v3.YtVariantStruct;
import io.ytstream.types.v3.YtVariantTuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a table schema and of type_v3 types, as {@code get <table>/@schema} returns it
 * over HTTP with JSON output, and as {@code create}/{@code alter_table} accept it.
 *
 * <p>Shapes follow {@code yt/docs/en/_includes/user-guide/storage/static-schema.md} (columns with
 * {@code name}, {@code type}, {@code required}, {@code type_v3}, {@code sort_order}; schema
 * attributes {@code strict} and {@code unique_keys}), {@code
 * yt/docs/en/_includes/user-guide/storage/data-types.md} (the {@code type_v3} forms: a string for a
 * primitive, or an object with {@code type_name} and {@code item}, {@code members} of {@code {name,
 * type}}, {@code elements} of {@code {type}}, {@code key}/{@code value}, {@code tag}, {@code
 * precision}/{@code scale}; a variant has exactly one of {@code members} and {@code elements}), and
 * {@code yt/docs/en/_includes/user-guide/storage/formats.md} (JSON encodes the attributes of a node
 * as {@code {"$attributes": {...}, "$value": ...}}).
 *
 * <p>Reading is strict about what it understands: wrong JSON types, missing keys, unknown type
 * names, a variant with both or neither of {@code members}/{@code elements}, an old-style {@code
 * type}/{@code required} that contradicts {@code type_v3}. Keys it does not use (a column's {@code
 * lock}, {@code expression}, {@code aggregate}, {@code group}, ...; unknown keys in a type object)
 * are ignored, as the server's own type_v3 parser ignores unknown keys. Errors name the column and
 * the path inside its type, e.g. {@code column #1 "b": type_v3.item: unknown type name "int65"}.
 *
 * <p>Strings are taken as the JSON text gives them. Over HTTP request the schema with {@code
 * <encode_utf8=%false>json} so non-ASCII names arrive as UTF-8 rather than one character per byte.
 */
public final class TableSchemaJson {

  private TableSchemaJson() {}

  /**
   * Parses a schema: either the bare column list {@code [...]} (strict, no unique keys) or {@code
   * {"$attributes": {"strict": ..., "unique_keys": ...}, "$value": [...]}}.
   *
   * @throws IllegalArgumentException naming the column and the problem
   */
  public static TableSchema parse(String json) {
    Object root = readJson("schema", json);
    List<?> columns;
    boolean strict = true;
    boolean uniqueKeys = false;
    if (root instanceof List<?> list) {
      columns = list;
    } else if (root instanceof Map<?, ?> map) {
      if (!(map.get("$value") instanceof List<?> list)) {
        throw new IllegalArgumentException(
            "schema JSON object must have a \"$value\" list of columns, got "
                + describe(map.get("$value")));
      }
      columns = list;
      Object attributes = map.get("$attributes");
      if (attributes != null) {
        if (!(attributes instanceof Map<?, ?> attrs)) {
          throw new IllegalArgumentException(
              "schema \"$attributes\" must be an object, got " + describe(attributes));
        }
        strict = optionalBoolean(attrs, "strict", true, "schema attribute");
        uniqueKeys = optionalBoolean(attrs, "unique_keys", false, "schema attribute");
      }
    } else {
      throw new IllegalArgumentException(
          "schema JSON must be a list of columns or an object with \"$value\", got "
              + describe(root));
    }
    List<ColumnSchema> result = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      result.add(parseColumn(i, columns.get(i)));
    }
    try {
      return new TableSchema(result, strict, uniqueKeys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("schema is invalid: " + e.getMessage(), e);
    }
  }

  /**
   * Writes the schema as {@code {"$attributes":{"strict":..,"unique_keys":..},"$value":[...]}},
   * each column with {@code name}, {@code type}, {@code required}, {@code type_v3} and, for key
   * columns, {@code sort_order} — the keys the server returns.
   */
  public static String write(TableSchema schema) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put("strict", schema.strict());
    attributes.put("unique_keys", schema.uniqueKeys());
    List<Object> columns = new ArrayList<>();
    for (ColumnSchema column : schema.columns()) {
      Map<String, Object> out = new LinkedHashMap<>();
      TypeV1 v1 = column.typeV1();
      out.put("name", column.name());
      out.put("type", v1.name());
      out.put("required", v1.required());
      out.put("type_v3", typeToJsonValue(column.type()));
      if (column.sortOrder().isKey()) {
        out.put("sort_order", column.sortOrder().jsonName());
      }
      columns.add(out);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("$attributes", attributes);
    root.put("$value", columns);
    return JsonWriter.write(root);
  }

  /** Parses the JSON form of one type_v3 type, e.g. {@code {"type_name":"list","item":"int64"}}. */
  public static YtType parseType(String json) {
    return parseType(readJson("type_v3", json), "type_v3");
  }

  /** Writes a type_v3 type as JSON: a string for a primitive, an object otherwise. */
  public static String writeType(YtType type) {
    return JsonWriter.write(typeToJsonValue(type));
  }

  private static Object readJson(String what, String json) {
    if (json == null || json.isBlank()) {
      throw new IllegalArgumentException(what + " JSON is empty");
    }
    try {
      return JsonReader.read(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + " JSON is malformed: " + e.getMessage(), e);
    }
  }

  private static ColumnSchema parseColumn(int index, Object node) {
    if (!(node instanceof Map<?, ?> column)) {
      throw new IllegalArgumentException(
          "column #" + index + " must be an object, got " + describe(node));
    }
    Object nameNode = column.get("name");
    if (!(nameNode instanceof String name)) {
      throw new IllegalArgumentException(
          "column #" + index + " must have a string \"name\", got " + describe(nameNode));
    }
    String where = "column #" + index + " \"" + name + "\"";
    try {
      return new ColumnSchema(name, columnType(column), sortOrder(column));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static YtType columnType(Map<?, ?> column) {
    Object typeNode = column.get("type");
    if (typeNode != null && !(typeNode instanceof String)) {
      throw new IllegalArgumentException("\"type\" must be a string, got " + describe(typeNode));
    }
    Object requiredNode = column.get("required");
    if (requiredNode != null && !(requiredNode instanceof Boolean)) {
      throw new IllegalArgumentException(
          "\"required\" must be a boolean, got " + describe(requiredNode));
    }
    if (column.get("type_v3") != null) {
      YtType type = parseType(column.get("type_v3"), "type_v3");
      TypeV1 implied = TypeV1.fromTypeV3(type);
      if (typeNode != null && !typeNode.equals(implied.name())) {
        throw new IllegalArgumentException(
            "\"type\" is \""
                + typeNode
                + "\" but type_v3 "
                + type.describe()
                + " implies \""
                + implied.name()
                + "\"");
      }
      if (requiredNode != null && !requiredNode.equals(implied.required())) {
        throw new IllegalArgumentException(
            "\"required\" is "
                + requiredNode
                + " but type_v3 "
                + type.describe()
                + " implies "
                + implied.required());
      }
      return type;
    }
    if (typeNode == null) {
      throw new IllegalArgumentException("has neither \"type_v3\" nor \"type\"");
    }
    boolean required = requiredNode != null && (Boolean) requiredNode;
    return TypeV1.of((String) typeNode, required).toTypeV3();
  }

  private static SortOrder sortOrder(Map<?, ?> column) {
    Object node = column.get("sort_order");
    if (node == null) {
      return SortOrder.NONE;
    }
    SortOrder order = node instanceof String s ? SortOrder.fromJsonName(s) : null;
    if (order == null) {
      throw new IllegalArgumentException(
          "\"sort_order\" must be \"ascending\" or \"descending\", got " + describe(node));
    }
    return order;
  }

  static YtType parseType(Object node, String where) {
    if (node instanceof String name) {
      return primitiveNamed(name, where, true);
    }
    if (!(node instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(
          where + ": a type must be a string or an object, got " + describe(node));
    }
    Object typeNameNode = map.get("type_name");
    if (!(typeNameNode instanceof String typeName)) {
      throw new IllegalArgumentException(
          where
              + ": a type object must have a string \"type_name\", got "
              + describe(typeNameNode));
    }
    switch (typeName) {
      case "decimal":
        return decimal(map, where);
      case "optional":
        return new YtOptional(parseType(required(map, "item", where), where + ".item"));
      case "list":
        return new YtList(parseType(required(map, "item", where), where + ".item"));
      case "struct":
        return construct(where, () -> new YtStruct(members(map, where)));
      case "tuple":
        return new YtTuple(elements(map, where));
      case "dict":
        return new YtDict(
            parseType(required(map, "key", where), where + ".key"),
            parseType(required(map, "value", where), where + ".value"));
      case "variant":
        return variant(map, where);
      case "tagged":
        return tagged(map, where);
      default:
        return primitiveNamed(typeName, where, false);
    }
  }

  private static YtType primitiveNamed(String name, String where, boolean asString) {
    YtPrimitive primitive = YtPrimitive.fromV3Name(name);
    if (primitive != null) {
      return primitive;
    }
    switch (name) {
      case "decimal", "optional", "list", "struct", "tuple", "dict", "variant", "tagged" -> {
        if (asString) {
          throw new IllegalArgumentException(
              where + ": type \"" + name + "\" must be an object with \"type_name\", not a string");
        }
      }
      default -> {}
    }
    YtPrimitive v1 = YtPrimitive.fromV1Name(name);
    throw new IllegalArgumentException(
        where
            + ": unknown type name \""
            + name
            + "\""
            + (v1 != null ? " (in type_v3 it is \"" + v1.v3Name() + "\")" : ""));
  }

  private interface TypeConstructor {
    YtType build();
  }

  private static YtType construct(String where, TypeConstructor constructor) {
    try {
      return constructor.build();
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(where)) {
        throw e;
      }
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static Object required(Map<?, ?> map, String key, String where) {
    Object value = map.get(key);
    if (value == null) {
      throw new IllegalArgumentException(
          where + ": \"" + map.get("type_name") + "\" needs the key \"" + key + "\"");
    }
    return value;
  }

  private static YtType decimal(Map<?, ?> map, String where) {
    int precision = smallInt(required(map, "precision", where), where + ".precision");
    int scale = smallInt(required(map, "scale", where), where + ".scale");
    return construct(where, () -> new YtDecimal(precision, scale));
  }

  private static int smallInt(Object node, String where) {
    if (node instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
      return l.intValue();
    }
    throw new IllegalArgumentException(where + ": must be an integer, got " + describe(node));
  }

  private static List<YtMember> members(Map<?, ?> map, String where) {
    List<?> list = listAt(map, "members", where);
    List<YtMember> members = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      String at = where + ".members[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> member)) {
        throw new IllegalArgumentException(
            at + ": a member must be an object {\"name\", \"type\"}, got " + describe(list.get(i)));
      }
      if (!(member.get("name") instanceof String name)) {
        throw new IllegalArgumentException(
            at + ": a member needs a string \"name\", got " + describe(member.get("name")));
      }
      Object typeNode = member.get("type");
      if (typeNode == null) {
        throw new IllegalArgumentException(at + ": member \"" + name + "\" needs a \"type\"");
      }
      YtType type = parseType(typeNode, at + ".type");
      members.add(member(at, name, type));
    }
    return members;
  }

  private static YtMember member(String where, String name, YtType type) {
    try {
      return new YtMember(name, type);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static List<YtType> elements(Map<?, ?> map, String where) {
    List<?> list = listAt(map, "elements", where);
    List<YtType> elements = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      String at = where + ".elements[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> element)) {
        throw new IllegalArgumentException(
            at + ": an element must be an object {\"type\"}, got " + describe(list.get(i)));
      }
      Object typeNode = element.get("type");
      if (typeNode == null) {
        throw new IllegalArgumentException(at + ": an element needs a \"type\"");
      }
      elements.add(parseType(typeNode, at + ".type"));
    }
    return elements;
  }

  private static List<?> listAt(Map<?, ?> map, String key, String where) {
    Object node = required(map, key, where);
    if (!(node instanceof List<?> list)) {
      throw new IllegalArgumentException(
          where + ": \"" + key + "\" must be a list, got " + describe(node));
    }
    return list;
  }

  private static YtType variant(Map<?, ?> map, String where) {
    boolean hasMembers = map.get("members") != null;
    boolean hasElements = map.get("elements") != null;
    if (hasMembers == hasElements) {
      throw new IllegalArgumentException(
          where
              + ": a variant needs exactly one of \"members\" (named) and \"elements\" (unnamed),"
              + (hasMembers ? " got both" : " got neither"));
    }
    if (hasMembers) {
      return construct(where, () -> new YtVariantStruct(members(map, where)));
    }
    return new YtVariantTuple(elements(map, where));
  }

  private static YtType tagged(Map<?, ?> map, String where) {
    Object tagNode = required(map, "tag", where);
    if (!(tagNode instanceof String tag)) {
      throw new IllegalArgumentException(
          where + ".tag: must be a string, got " + describe(tagNode));
    }
    YtType item = parseType(required(map, "item", where), where + ".item");
    return construct(where, () -> new YtTagged(tag, item));
  }

  /** The JSON value (as {@link JsonWriter} writes it) of a type. */
  static Object typeToJsonValue(YtType type) {
    if (type instanceof YtPrimitive p) {
      return p.v3Name();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    if (type instanceof YtDecimal d) {
      out.put("type_name", "decimal");
      out.put("precision", (long) d.precision());
      out.put("scale", (long) d.scale());
    } else if (type instanceof YtOptional o) {
      out.put("type_name", "optional");
      out.put("item", typeToJsonValue(o.item()));
    } else if (type instanceof YtList l) {
      out.put("type_name", "list");
      out.put("item", typeToJsonValue(l.item()));
    } else if (type instanceof YtStruct s) {
      out.put("type_name", "struct");
      out.put("members", membersToJson(s.members()));
    } else if (type instanceof YtTuple t) {
      out.put("type_name", "tuple");
      out.put("elements", elementsToJson(t.elements()));
    } else if (type instanceof YtDict d) {
      out.put("type_name", "dict");
      out.put("key", typeToJsonValue(d.key()));
      out.put("value", typeToJsonValue(d.value()));
    } else if (type instanceof YtVariantStruct v) {
      out.put("type_name", "variant");
      out.put("members", membersToJson(v.members()));
    } else if (type instanceof YtVariantTuple v) {
      out.put("type_name", "variant");
      out.put("elements", elementsToJson(v.elements()));
    } else {
      YtTagged t = (YtTagged) type;
      out.put("type_name", "tagged");
      out.put("tag", t.tag());
      out.put("item", typeToJsonValue(t.item()));
    }
    return out;
  }

  private static List<Object> membersToJson(List<YtMember> members) {
    List<Object> out = new ArrayList<>(members.size());
    for (YtMember member : members) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", member.name());
      m.put("type", typeToJsonValue(member.type()));
      out.add(m);
    }
    return out;
  }

  private static List<Object> elementsToJson(List<YtType> elements) {
    List<Object> out = new ArrayList<>(elements.size());
    for (YtType element : elements) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", typeToJsonValue(element));
      out.add(m);
    }
    return out;
  }

  private static boolean optionalBoolean(
      Map<?, ?> map, String key, boolean defaultValue, String what) {
    Object node = map.get(key);
    if (node == null) {
      return defaultValue;
    }
    if (!(node instanceof Boolean b)) {
      throw new IllegalArgumentException(
          what + " \"" + key + "\" must be a boolean, got " + describe(node));
    }
    return b;
  }

  private static String describe(Object node) {
    if (node == null) {
      return "nothing";
    }
    if (node instanceof String s) {
      return "the string \"" + s + "\"";
    }
    if (node instanceof Map<?, ?>) {
      return "an object";
    }
    if (node instanceof List<?>) {
      return "a list";
    }
    if (node instanceof Boolean) {
      return "the boolean " + node;
    }
    return "the number " + node;
  }
}
