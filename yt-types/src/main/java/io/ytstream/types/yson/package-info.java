/**
 * YSON, text and binary ({@code yt/docs/en/_includes/user-guide/storage/yson.md}): values as plain
 * Java ({@link io.ytstream.types.yson.Yson}).
 */
package io.ytstream.types.yson;
