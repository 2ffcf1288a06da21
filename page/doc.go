// Package page is the one way Ferry pages through a list. Every list the
// API serves answers {data, next_cursor}; the cursor is a Cursor encoded
// by Encode and read back by Decode, so every list accepts and rejects
// cursors alike (a cursor Ferry did not issue is EINVALID on the field
// "cursor"). Request carries the page size and the cursor from the query
// string, and Request.Size clamps the size to [1, MaxSize].
//
// A list ordered newest first fetches Size()+1 rows after the cursor's
// position and hands them to Trim, which drops the extra row and returns
// the cursor of the next page, or "" on the last page.
package page
