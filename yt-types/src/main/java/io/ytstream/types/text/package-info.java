/** Text as YTsaurus stores it: UTF-8 bytes, and when such bytes are text. */
package io.ytstream.types.text;
