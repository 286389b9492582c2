/**
 * YTsaurus types and values, free of dependencies: the type_v3 model ({@link
 * io.ytstream.core.schema.YtType} and its records), table schemas ({@link
 * io.ytstream.core.schema.TableSchema}) with their JSON form as the HTTP API returns it ({@link
 * io.ytstream.core.schema.TableSchemaJson}), the old {@code type}/{@code required} rules ({@link
 * io.ytstream.core.schema.TypeV1}), and a YSON codec for values, text and binary ({@link
 * io.ytstream.core.schema.Yson}).
 *
 * <p>This is the foundation the Spark adapter (type mapping) and the HTTP adapter (wire encoding)
 * build on; it holds no Spark mapping itself. Formats follow the YTsaurus documentation under
 * {@code yt/docs/en/_includes/user-guide/storage/} (data-types.md, static-schema.md, yson.md,
 * formats.md); each class names the part it follows.
 */
package io.ytstream.core.schema;
