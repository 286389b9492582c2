/**
 * YTsaurus types and their wire forms, free of dependencies, by concern:
 *
 * <ul>
 *   <li>{@link io.ytstream.types.v3} — the type_v3 model ({@link io.ytstream.types.v3.YtType} and
 *       its records) and the old {@code type}/{@code required} rules ({@link
 *       io.ytstream.types.v3.TypeV1});
 *   <li>{@link io.ytstream.types.schema} — table schemas ({@link
 *       io.ytstream.types.schema.TableSchema}) and their JSON form as the HTTP API returns it
 *       ({@link io.ytstream.types.schema.TableSchemaJson});
 *   <li>{@link io.ytstream.types.value} — the Java value a row holds for each type ({@link
 *       io.ytstream.types.value.YtValues}) and its YSON representation;
 *   <li>{@link io.ytstream.types.yson} — a YSON codec for values, text and binary ({@link
 *       io.ytstream.types.yson.Yson}), and the binary token reader other decoders build on;
 *   <li>{@link io.ytstream.types.json} — the one JSON reader and writer of plain Java values.
 * </ul>
 *
 * <p>This is the foundation the Spark adapter (type mapping), the HTTP adapter (wire encoding) and
 * the checkpoint's offsets JSON build on; it holds no Spark mapping and no protocol decision.
 * Formats follow the YTsaurus documentation under {@code yt/docs/en/_includes/user-guide/storage/}
 * (data-types.md, static-schema.md, yson.md, formats.md); each class names the part it follows.
 */
package io.ytstream.types;
