package io.ytstream.types.schema;

import static io.ytstream.types.v3.YtType.dict;
import static io.ytstream.types.v3.YtType.list;
import static io.ytstream.types.v3.YtType.member;
import static io.ytstream.types.v3.YtType.optional;
import static io.ytstream.types.v3.YtType.struct;
import static io.ytstream.types.v3.YtType.tagged;
import static io.ytstream.types.v3.YtType.tuple;
import static io.ytstream.types.v3.YtType.variantStruct;
import static io.ytstream.types.v3.YtType.variantTuple;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ytstream.types.v3.TypeV1;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.v3.YtVariantStruct;
import io.ytstream.types.v3.YtVariantTuple;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Schema JSON, checked against the shapes of yt/docs/en/_includes/user-guide/storage/data-types.md
 * ("Describing types in a schema") and static-schema.md; the YSON examples there are transcribed to
 * the JSON the HTTP API returns for them.
 */
class TableSchemaJsonTest {

  private static String schemaError(String json) {
    return assertThrows(IllegalArgumentException.class, () -> TableSchemaJson.parse(json), json)
        .getMessage();
  }

  private static String typeError(String json) {
    return assertThrows(IllegalArgumentException.class, () -> TableSchemaJson.parseType(json), json)
        .getMessage();
  }

  private static void assertTypeRoundTrip(YtType type) {
    String json = TableSchemaJson.writeType(type);
    assertEquals(type, TableSchemaJson.parseType(json), json);
    TableSchema schema = TableSchema.of(ColumnSchema.of("c", type));
    assertEquals(schema, TableSchemaJson.parse(TableSchemaJson.write(schema)), json);
  }

  @Test
  void documentationTypeExamples() {
    // data-types.md, "Primitive types": type_v3=utf8, type_v3=bool, type_v3=yson
    assertEquals(YtPrimitive.UTF8, TableSchemaJson.parseType("\"utf8\""));
    assertEquals(YtPrimitive.BOOL, TableSchemaJson.parseType("\"bool\""));
    assertEquals(YtPrimitive.YSON, TableSchemaJson.parseType("\"yson\""));
    // "Decimal": {type_name=decimal; precision=10; scale=2}
    assertEquals(
        YtType.decimal(10, 2),
        TableSchemaJson.parseType("{\"type_name\":\"decimal\",\"precision\":10,\"scale\":2}"));
    // "Optional type"
    assertEquals(
        optional(YtPrimitive.STRING),
        TableSchemaJson.parseType("{\"type_name\":\"optional\",\"item\":\"string\"}"));
    assertEquals(
        optional(optional(YtPrimitive.BOOL)),
        TableSchemaJson.parseType(
            "{\"type_name\":\"optional\",\"item\":{\"type_name\":\"optional\",\"item\":\"bool\"}}"));
    // "List"
    assertEquals(
        list(list(YtPrimitive.DOUBLE)),
        TableSchemaJson.parseType(
            "{\"type_name\":\"list\",\"item\":{\"type_name\":\"list\",\"item\":\"double\"}}"));
    // "Struct"
    assertEquals(
        struct(member("foo", YtPrimitive.INT32), member("bar", optional(YtPrimitive.STRING))),
        TableSchemaJson.parseType(
            "{\"type_name\":\"struct\",\"members\":[{\"name\":\"foo\",\"type\":\"int32\"},"
                + "{\"name\":\"bar\",\"type\":{\"type_name\":\"optional\",\"item\":\"string\"}}]}"));
    // "Tuple"
    assertEquals(
        tuple(YtPrimitive.DOUBLE, YtPrimitive.DOUBLE),
        TableSchemaJson.parseType(
            "{\"type_name\":\"tuple\",\"elements\":[{\"type\":\"double\"},{\"type\":\"double\"}]}"));
    // "Variant", both forms
    assertEquals(
        variantStruct(
            member("int_field", YtPrimitive.INT64), member("string_field", YtPrimitive.STRING)),
        TableSchemaJson.parseType(
            "{\"type_name\":\"variant\",\"members\":[{\"name\":\"int_field\",\"type\":\"int64\"},"
                + "{\"name\":\"string_field\",\"type\":\"string\"}]}"));
    assertEquals(
        variantTuple(YtPrimitive.INT32, YtPrimitive.STRING, YtPrimitive.DOUBLE),
        TableSchemaJson.parseType(
            "{\"type_name\":\"variant\",\"elements\":[{\"type\":\"int32\"},{\"type\":\"string\"},"
                + "{\"type\":\"double\"}]}"));
    // "Dict"
    assertEquals(
        dict(YtPrimitive.INT64, optional(YtPrimitive.STRING)),
        TableSchemaJson.parseType(
            "{\"type_name\":\"dict\",\"key\":\"int64\","
                + "\"value\":{\"type_name\":\"optional\",\"item\":\"string\"}}"));
    // "Tagged"
    assertEquals(
        tagged("image/svg", YtPrimitive.STRING),
        TableSchemaJson.parseType(
            "{\"type_name\":\"tagged\",\"tag\":\"image/svg\",\"item\":\"string\"}"));
  }

  @Test
  void everyPrimitiveRoundTripsAsAStringAndReadsInObjectForm() {
    for (YtPrimitive p : YtPrimitive.values()) {
      assertEquals("\"" + p.v3Name() + "\"", TableSchemaJson.writeType(p));
      assertTypeRoundTrip(p);
      assertEquals(p, TableSchemaJson.parseType("{\"type_name\":\"" + p.v3Name() + "\"}"));
      if (!p.isNullable()) {
        assertTypeRoundTrip(optional(p));
      }
    }
  }

  @Test
  void everyCompositeShapeRoundTrips() {
    YtType everything =
        struct(
            member("opt", optional(optional(YtPrimitive.INT64))),
            member("list", list(struct(member("x", YtType.decimal(35, 10))))),
            member("tuple", tuple(YtPrimitive.UTF8, list(YtPrimitive.NULL))),
            member("empty_tuple", tuple()),
            member("empty_struct", struct()),
            member("dict", dict(tuple(YtPrimitive.INT8, YtPrimitive.UUID), list(YtPrimitive.YSON))),
            member(
                "vs",
                variantStruct(
                    member("a", tagged("t", YtPrimitive.DATE32)), member("b", YtPrimitive.VOID))),
            member("vt", variantTuple(optional(YtPrimitive.TIMESTAMP64), YtPrimitive.JSON)),
            member("tagged", tagged("image/png", optional(list(YtPrimitive.STRING)))),
            member("\u00e9t\u00e9 \"quoted\"\n", YtPrimitive.INTERVAL64));
    assertTypeRoundTrip(everything);
    assertTypeRoundTrip(list(everything));
    assertTypeRoundTrip(dict(everything, optional(everything)));
    YtType deep = YtPrimitive.INT64;
    for (int i = 0; i < 100; i++) {
      deep = i % 2 == 0 ? optional(deep) : list(deep);
    }
    assertTypeRoundTrip(deep);
  }

  @Test
  void randomTypesRoundTrip() {
    long seed = 20240611L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 300; i++) {
      YtType type = randomType(random, 4);
      String json = TableSchemaJson.writeType(type);
      assertEquals(
          type, TableSchemaJson.parseType(json), "seed " + seed + " case " + i + ": " + json);
    }
  }

  static YtType randomType(SplittableRandom random, int depth) {
    YtPrimitive[] primitives = YtPrimitive.values();
    int kind = depth == 0 ? 0 : random.nextInt(10);
    switch (kind) {
      case 0:
        return primitives[random.nextInt(primitives.length)];
      case 1:
        int precision = 1 + random.nextInt(76);
        return YtType.decimal(precision, random.nextInt(precision + 1));
      case 2:
        return optional(randomType(random, depth - 1));
      case 3:
        return list(randomType(random, depth - 1));
      case 4:
        return new YtStruct(randomMembers(random, depth));
      case 5:
        return new YtTuple(randomElements(random, depth));
      case 6:
        return dict(randomType(random, depth - 1), randomType(random, depth - 1));
      case 7:
        return new YtVariantStruct(randomMembers(random, depth));
      case 8:
        return new YtVariantTuple(randomElements(random, depth));
      default:
        return tagged("tag" + random.nextInt(3), randomType(random, depth - 1));
    }
  }

  private static List<YtMember> randomMembers(SplittableRandom random, int depth) {
    List<YtMember> members = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      members.add(member("m" + i, randomType(random, depth - 1)));
    }
    return members;
  }

  private static List<YtType> randomElements(SplittableRandom random, int depth) {
    List<YtType> elements = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      elements.add(randomType(random, depth - 1));
    }
    return elements;
  }

  @Test
  void readsWhatGetSchemaReturns() {
    // static-schema.md "Weak and strong schema": get //tmp/table_2/@schema, as JSON output.
    String json =
        "{\"$attributes\":{\"unique_keys\":false,\"strict\":true},\"$value\":["
            + "{\"name\":\"a\",\"type\":\"int64\",\"required\":false,"
            + "\"type_v3\":{\"type_name\":\"optional\",\"item\":\"int64\"}},"
            + "{\"name\":\"b\",\"type\":\"string\",\"required\":false,"
            + "\"type_v3\":{\"type_name\":\"optional\",\"item\":\"string\"}}]}";
    TableSchema expected =
        TableSchema.of(
            ColumnSchema.of("a", optional(YtPrimitive.INT64)),
            ColumnSchema.of("b", optional(YtPrimitive.STRING)));
    assertEquals(expected, TableSchemaJson.parse(json));
  }

  @Test
  void readsOldStyleColumnsAndSchemaAttributes() {
    // static-schema.md, the automatically output schema of a table sorted by key1; key2.
    String json =
        "{\"$attributes\":{\"strict\":false},\"$value\":["
            + "{\"name\":\"key1\",\"type\":\"any\",\"sort_order\":\"ascending\","
            + "\"type_v3\":{\"type_name\":\"optional\",\"item\":\"yson\"}},"
            + "{\"name\":\"key2\",\"type\":\"any\",\"sort_order\":\"ascending\"},"
            + "{\"name\":\"value\",\"type\":\"string\",\"group\":\"g1\",\"lock\":\"l\"},"
            + "{\"name\":\"flag\",\"type\":\"boolean\",\"required\":true}]}";
    TableSchema schema = TableSchemaJson.parse(json);
    assertEquals(
        new TableSchema(
            List.of(
                new ColumnSchema("key1", optional(YtPrimitive.YSON), SortOrder.ASCENDING),
                new ColumnSchema("key2", optional(YtPrimitive.YSON), SortOrder.ASCENDING),
                ColumnSchema.of("value", optional(YtPrimitive.STRING)),
                ColumnSchema.of("flag", YtPrimitive.BOOL)),
            false,
            false),
        schema);
    assertEquals(2, schema.keyColumnCount());
    assertEquals(schema, TableSchemaJson.parse(TableSchemaJson.write(schema)));
    // A bare column list is strict without unique keys, as documented defaults.
    assertEquals(
        TableSchema.of(ColumnSchema.of("x", optional(YtPrimitive.INT64))),
        TableSchemaJson.parse("[{\"name\":\"x\",\"type\":\"int64\"}]"));
    assertEquals(TableSchema.of(), TableSchemaJson.parse("[]"));
    assertEquals(
        new TableSchema(List.of(), false, false),
        TableSchemaJson.parse(
            "{\"$attributes\":{\"strict\":false,\"unique_keys\":false},\"$value\":[]}"));
    assertEquals(TableSchema.of(), TableSchemaJson.parse("{\"$value\":[]}"));
  }

  @Test
  void writesTheServerShape() {
    TableSchema schema =
        new TableSchema(
            List.of(
                new ColumnSchema("k", YtPrimitive.INT64, SortOrder.DESCENDING),
                ColumnSchema.of("v", optional(list(YtPrimitive.BOOL))),
                ColumnSchema.of("d", YtType.decimal(5, 2))),
            true,
            true);
    assertEquals(
        "{\"$attributes\":{\"strict\":true,\"unique_keys\":true},\"$value\":["
            + "{\"name\":\"k\",\"type\":\"int64\",\"required\":true,\"type_v3\":\"int64\","
            + "\"sort_order\":\"descending\"},"
            + "{\"name\":\"v\",\"type\":\"any\",\"required\":false,\"type_v3\":{\"type_name\":"
            + "\"optional\",\"item\":{\"type_name\":\"list\",\"item\":\"bool\"}}},"
            + "{\"name\":\"d\",\"type\":\"string\",\"required\":true,\"type_v3\":{\"type_name\":"
            + "\"decimal\",\"precision\":5,\"scale\":2}}]}",
        TableSchemaJson.write(schema));
    assertEquals(schema, TableSchemaJson.parse(TableSchemaJson.write(schema)));
    assertEquals(
        "{\"type_name\":\"variant\",\"members\":[{\"name\":\"a\",\"type\":\"int8\"}]}",
        TableSchemaJson.writeType(variantStruct(member("a", YtPrimitive.INT8))));
    assertEquals(
        "{\"type_name\":\"variant\",\"elements\":[{\"type\":\"int8\"}]}",
        TableSchemaJson.writeType(variantTuple(YtPrimitive.INT8)));
    assertEquals(
        "{\"type_name\":\"tagged\",\"tag\":\"image/png\",\"item\":\"string\"}",
        TableSchemaJson.writeType(tagged("image/png", YtPrimitive.STRING)));
    assertEquals(
        "{\"type_name\":\"dict\",\"key\":\"utf8\",\"value\":\"double\"}",
        TableSchemaJson.writeType(dict(YtPrimitive.UTF8, YtPrimitive.DOUBLE)));
  }

  @Test
  void unknownKeysInTypesAreIgnoredLikeTheServerDoes() {
    assertEquals(
        optional(YtPrimitive.INT64),
        TableSchemaJson.parseType(
            "{\"type_name\":\"optional\",\"item\":\"int64\",\"future\":[1,2.5,null,true]}"));
    assertEquals(
        struct(member("a", YtPrimitive.INT64)),
        TableSchemaJson.parseType(
            "{\"type_name\":\"struct\",\"members\":[{\"name\":\"a\",\"type\":\"int64\",\"x\":1}]}"));
  }

  @Test
  void malformedTypes() {
    assertEquals("type_v3: unknown type name \"int65\"", typeError("\"int65\""));
    assertEquals(
        "type_v3: unknown type name \"boolean\" (in type_v3 it is \"bool\")",
        typeError("\"boolean\""));
    assertEquals(
        "type_v3: unknown type name \"any\" (in type_v3 it is \"yson\")", typeError("\"any\""));
    assertEquals(
        "type_v3: type \"optional\" must be an object with \"type_name\", not a string",
        typeError("\"optional\""));
    assertEquals("type_v3: a type must be a string or an object, got the number 5", typeError("5"));
    assertEquals(
        "type_v3: a type must be a string or an object, got a list", typeError("[\"int64\"]"));
    assertEquals(
        "type_v3: a type object must have a string \"type_name\", got nothing",
        typeError("{\"item\":\"int64\"}"));
    assertEquals(
        "type_v3: a type object must have a string \"type_name\", got the boolean true",
        typeError("{\"type_name\":true}"));
    assertEquals(
        "type_v3: \"optional\" needs the key \"item\"", typeError("{\"type_name\":\"optional\"}"));
    assertEquals(
        "type_v3.item: unknown type name \"int65\"",
        typeError("{\"type_name\":\"list\",\"item\":\"int65\"}"));
    assertEquals(
        "type_v3.item.item: unknown type name \"x\"",
        typeError("{\"type_name\":\"optional\",\"item\":{\"type_name\":\"list\",\"item\":\"x\"}}"));
    assertEquals(
        "type_v3: \"dict\" needs the key \"value\"",
        typeError("{\"type_name\":\"dict\",\"key\":\"int64\"}"));
    assertEquals(
        "type_v3.value: unknown type name \"y\"",
        typeError("{\"type_name\":\"dict\",\"key\":\"int64\",\"value\":\"y\"}"));
    assertEquals(
        "type_v3.key: unknown type name \"y\"",
        typeError("{\"type_name\":\"dict\",\"key\":\"y\",\"value\":\"int64\"}"));
    assertEquals(
        "type_v3: \"struct\" needs the key \"members\"", typeError("{\"type_name\":\"struct\"}"));
    assertEquals(
        "type_v3: \"members\" must be a list, got an object",
        typeError("{\"type_name\":\"struct\",\"members\":{}}"));
    assertEquals(
        "type_v3.members[1]: a member needs a string \"name\", got nothing",
        typeError(
            "{\"type_name\":\"struct\",\"members\":[{\"name\":\"a\",\"type\":\"int64\"},"
                + "{\"type\":\"int64\"}]}"));
    assertEquals(
        "type_v3.members[0]: a member must be an object {\"name\", \"type\"}, got the string \"a\"",
        typeError("{\"type_name\":\"struct\",\"members\":[\"a\"]}"));
    assertEquals(
        "type_v3.members[0]: member \"a\" needs a \"type\"",
        typeError("{\"type_name\":\"struct\",\"members\":[{\"name\":\"a\"}]}"));
    assertEquals(
        "type_v3.members[0]: member name must not be empty",
        typeError("{\"type_name\":\"struct\",\"members\":[{\"name\":\"\",\"type\":\"int64\"}]}"));
    assertEquals(
        "type_v3.members[0].type: unknown type name \"q\"",
        typeError("{\"type_name\":\"struct\",\"members\":[{\"name\":\"a\",\"type\":\"q\"}]}"));
    assertEquals(
        "type_v3: struct member name \"a\" is used twice (again at member #1)",
        typeError(
            "{\"type_name\":\"struct\",\"members\":[{\"name\":\"a\",\"type\":\"int64\"},"
                + "{\"name\":\"a\",\"type\":\"int64\"}]}"));
    assertEquals(
        "type_v3.elements[0]: an element needs a \"type\"",
        typeError("{\"type_name\":\"tuple\",\"elements\":[{}]}"));
    assertEquals(
        "type_v3.elements[1]: an element must be an object {\"type\"}, got the string \"int64\"",
        typeError("{\"type_name\":\"tuple\",\"elements\":[{\"type\":\"int64\"},\"int64\"]}"));
    assertEquals(
        "type_v3.elements[0].type: unknown type name \"z\"",
        typeError("{\"type_name\":\"tuple\",\"elements\":[{\"type\":\"z\"}]}"));
    assertEquals(
        "type_v3: a variant needs exactly one of \"members\" (named) and \"elements\" (unnamed),"
            + " got both",
        typeError("{\"type_name\":\"variant\",\"members\":[],\"elements\":[]}"));
    assertEquals(
        "type_v3: a variant needs exactly one of \"members\" (named) and \"elements\" (unnamed),"
            + " got neither",
        typeError("{\"type_name\":\"variant\"}"));
    assertEquals(
        "type_v3.members[0].type: unknown type name \"q\"",
        typeError("{\"type_name\":\"variant\",\"members\":[{\"name\":\"a\",\"type\":\"q\"}]}"));
    assertEquals(
        "type_v3: variant member name \"a\" is used twice (again at member #1)",
        typeError(
            "{\"type_name\":\"variant\",\"members\":[{\"name\":\"a\",\"type\":\"int64\"},"
                + "{\"name\":\"a\",\"type\":\"int64\"}]}"));
    assertEquals(
        "type_v3: \"tagged\" needs the key \"tag\"",
        typeError("{\"type_name\":\"tagged\",\"item\":\"int64\"}"));
    assertEquals(
        "type_v3.tag: must be a string, got the number 1",
        typeError("{\"type_name\":\"tagged\",\"tag\":1,\"item\":\"int64\"}"));
    assertEquals(
        "type_v3: tag of a tagged type must not be empty",
        typeError("{\"type_name\":\"tagged\",\"tag\":\"\",\"item\":\"int64\"}"));
    assertEquals(
        "type_v3: \"tagged\" needs the key \"item\"",
        typeError("{\"type_name\":\"tagged\",\"tag\":\"t\"}"));
    assertEquals(
        "type_v3: \"decimal\" needs the key \"scale\"",
        typeError("{\"type_name\":\"decimal\",\"precision\":3}"));
    assertEquals(
        "type_v3: \"decimal\" needs the key \"precision\"",
        typeError("{\"type_name\":\"decimal\",\"scale\":3}"));
    assertEquals(
        "type_v3.precision: must be an integer, got the number 3.5",
        typeError("{\"type_name\":\"decimal\",\"precision\":3.5,\"scale\":1}"));
    assertEquals(
        "type_v3.scale: must be an integer, got the string \"1\"",
        typeError("{\"type_name\":\"decimal\",\"precision\":3,\"scale\":\"1\"}"));
    assertEquals(
        "type_v3.precision: must be an integer, got the number 4294967296",
        typeError("{\"type_name\":\"decimal\",\"precision\":4294967296,\"scale\":1}"));
    assertEquals(
        "type_v3: decimal precision must be in [1, 76], got 0",
        typeError("{\"type_name\":\"decimal\",\"precision\":0,\"scale\":0}"));
    assertEquals(
        "type_v3: decimal scale must be in [0, precision=3], got 4",
        typeError("{\"type_name\":\"decimal\",\"precision\":3,\"scale\":4}"));
    assertEquals("type_v3 JSON is empty", typeError(" "));
    assertEquals(
        "type_v3 JSON is malformed: unexpected end of input at character 22 (at $.item)",
        typeError("{\"type_name\":1,\"item\":"));
  }

  @Test
  void malformedSchemas() {
    assertEquals("schema JSON is empty", schemaError(""));
    assertEquals(
        "schema JSON is malformed: expected ',' or ']' at character 45 (at $)",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\",\"required\":true} {}]"));
    assertEquals(
        "schema JSON must be a list of columns or an object with \"$value\", got the string \"x\"",
        schemaError("\"x\""));
    assertEquals(
        "schema JSON object must have a \"$value\" list of columns, got nothing",
        schemaError("{\"$attributes\":{}}"));
    assertEquals(
        "schema JSON object must have a \"$value\" list of columns, got an object",
        schemaError("{\"$value\":{}}"));
    assertEquals(
        "schema \"$attributes\" must be an object, got a list",
        schemaError("{\"$attributes\":[],\"$value\":[]}"));
    assertEquals(
        "schema attribute \"strict\" must be a boolean, got the string \"true\"",
        schemaError("{\"$attributes\":{\"strict\":\"true\"},\"$value\":[]}"));
    assertEquals(
        "schema attribute \"unique_keys\" must be a boolean, got the number 1",
        schemaError("{\"$attributes\":{\"unique_keys\":1},\"$value\":[]}"));
    assertEquals("column #0 must be an object, got a list", schemaError("[[]]"));
    assertEquals(
        "column #1 must have a string \"name\", got nothing",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\"},{\"type\":\"int64\"}]"));
    assertEquals(
        "column #0 \"a\": has neither \"type_v3\" nor \"type\"", schemaError("[{\"name\":\"a\"}]"));
    assertEquals(
        "column #0 \"a\": \"type\" must be a string, got the number 1",
        schemaError("[{\"name\":\"a\",\"type\":1}]"));
    assertEquals(
        "column #0 \"a\": \"required\" must be a boolean, got the string \"yes\"",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\",\"required\":\"yes\"}]"));
    assertEquals(
        "column #0 \"a\": \"bool\" is not a YTsaurus type name in the \"type\" key (it is the"
            + " type_v3 name of \"boolean\")",
        schemaError("[{\"name\":\"a\",\"type\":\"bool\"}]"));
    assertEquals(
        "column #0 \"a\": type \"null\" holds only null and cannot be required",
        schemaError("[{\"name\":\"a\",\"type\":\"null\",\"required\":true}]"));
    assertEquals(
        "column #2 \"c\": type_v3.item: unknown type name \"int65\"",
        schemaError(
            "[{\"name\":\"a\",\"type\":\"int64\"},{\"name\":\"b\",\"type\":\"int64\"},"
                + "{\"name\":\"c\",\"type_v3\":{\"type_name\":\"list\",\"item\":\"int65\"}}]"));
    assertEquals(
        "column #0 \"a\": \"type\" is \"string\" but type_v3 optional<int64> implies \"int64\"",
        schemaError(
            "[{\"name\":\"a\",\"type\":\"string\","
                + "\"type_v3\":{\"type_name\":\"optional\",\"item\":\"int64\"}}]"));
    assertEquals(
        "column #0 \"a\": \"required\" is true but type_v3 optional<int64> implies false",
        schemaError(
            "[{\"name\":\"a\",\"required\":true,"
                + "\"type_v3\":{\"type_name\":\"optional\",\"item\":\"int64\"}}]"));
    assertEquals(
        "column #0 \"a\": \"sort_order\" must be \"ascending\" or \"descending\", got the string"
            + " \"up\"",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\",\"sort_order\":\"up\"}]"));
    assertEquals(
        "column #0 \"a\": \"sort_order\" must be \"ascending\" or \"descending\", got the number 1",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\",\"sort_order\":1}]"));
    assertEquals(
        "column #0 \"\": column name must not be empty",
        schemaError("[{\"name\":\"\",\"type\":\"int64\"}]"));
    assertEquals(
        "column #0 \"@x\": column name \"@x\" must not start with the system prefix @",
        schemaError("[{\"name\":\"@x\",\"type\":\"int64\"}]"));
    assertEquals(
        "schema is invalid: column \"a\" appears twice (again at position 1)",
        schemaError("[{\"name\":\"a\",\"type\":\"int64\"},{\"name\":\"a\",\"type\":\"string\"}]"));
    assertEquals(
        "schema is invalid: key column \"b\" (position 1) follows a non-key column; key columns"
            + " must form a prefix of the schema",
        schemaError(
            "[{\"name\":\"a\",\"type\":\"int64\"},"
                + "{\"name\":\"b\",\"type\":\"int64\",\"sort_order\":\"ascending\"}]"));
  }

  @Test
  void consistentOldStyleKeysNextToTypeV3AreAccepted() {
    assertEquals(
        TableSchema.of(ColumnSchema.of("a", list(YtPrimitive.INT64))),
        TableSchemaJson.parse(
            "[{\"name\":\"a\",\"type\":\"any\",\"required\":true,"
                + "\"type_v3\":{\"type_name\":\"list\",\"item\":\"int64\"}}]"));
    assertEquals(
        TableSchema.of(ColumnSchema.of("a", YtType.decimal(3, 2))),
        TableSchemaJson.parse(
            "[{\"name\":\"a\",\"type\":\"string\",\"required\":true,"
                + "\"type_v3\":{\"type_name\":\"decimal\",\"precision\":3,\"scale\":2}}]"));
    // JSON null for sort_order or type_v3 means absent.
    assertEquals(
        TableSchema.of(ColumnSchema.of("a", optional(YtPrimitive.INT64))),
        TableSchemaJson.parse(
            "[{\"name\":\"a\",\"type\":\"int64\",\"type_v3\":null,\"sort_order\":null}]"));
  }

  @Test
  void tableSchemaLookups() {
    TableSchema schema =
        TableSchema.of(
            new ColumnSchema("k", YtPrimitive.INT64, SortOrder.ASCENDING),
            ColumnSchema.of("v", YtPrimitive.STRING));
    assertEquals(1, schema.keyColumnCount());
    assertEquals(YtPrimitive.STRING, schema.column("v").orElseThrow().type());
    assertEquals(false, schema.column("w").isPresent());
    assertEquals(0, TableSchema.of(ColumnSchema.of("v", YtPrimitive.STRING)).keyColumnCount());
    assertEquals(new TypeV1(YtPrimitive.INT64, true), schema.columns().get(0).typeV1());
    String name = "x".repeat(256);
    assertEquals(name, ColumnSchema.of(name, YtPrimitive.INT64).name());
    assertEquals(
        "column name \"" + name + "x\" is 257 bytes of UTF-8, more than the limit 256",
        assertThrows(
                IllegalArgumentException.class,
                () -> ColumnSchema.of(name + "x", YtPrimitive.INT64))
            .getMessage());
  }
}
