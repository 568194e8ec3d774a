// 64-bit fields as plain numbers (ids, versions and milliseconds stay far below 2^53), as the
// generated types (--force-number) say. Imported before the generated code, whose prototypes take
// their 64-bit defaults from util.Long when it loads.
import $protobuf from 'protobufjs/minimal.js';

$protobuf.util.Long = undefined as unknown as typeof $protobuf.util.Long;
$protobuf.configure();
