/**
 * A table's schema ({@link io.ytstream.types.schema.TableSchema} of {@link
 * io.ytstream.types.schema.ColumnSchema}) and its wire form, the JSON that {@code get
 * <table>/@schema} returns ({@link io.ytstream.types.schema.TableSchemaJson}).
 */
package io.ytstream.types.schema;
