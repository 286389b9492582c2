/**
 * The JSON reader and writer of plain Java values (maps in document order, lists, strings, numbers,
 * booleans, null): {@link io.ytstream.types.json.JsonReader}, {@link
 * io.ytstream.types.json.JsonWriter}.
 */
package io.ytstream.types.json;
