/**
 * The type_v3 model of {@code yt/docs/en/_includes/user-guide/storage/data-types.md}: {@link
 * io.ytstream.types.v3.YtType} and its records, and the old {@code type}/{@code required} pair
 * ({@link io.ytstream.types.v3.TypeV1}) with the server's conversions both ways.
 */
package io.ytstream.types.v3;
