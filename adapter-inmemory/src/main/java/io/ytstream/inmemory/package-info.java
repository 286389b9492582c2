/** An in-memory YTsaurus cluster with YTsaurus semantics and fault injection. */
package io.ytstream.inmemory;
