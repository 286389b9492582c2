/**
 * Row values by type: the Java value a row holds for each type_v3 type in one canonical form
 * ({@link io.ytstream.types.value.YtValues}), its YSON representation ({@link
 * io.ytstream.types.value.YsonRepresentation}) and the binary form of decimals ({@link
 * io.ytstream.types.value.DecimalBinary}).
 */
package io.ytstream.types.value;
