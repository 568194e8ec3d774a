// The wire: the desktop client's protobuf messages (generated from proto/xiangqi.proto at build
// time), one ClientMessage or ServerMessage per binary WebSocket frame, without a length prefix.
import './protobuf-numbers';
import { xiangqi } from '../gen/xiangqi.js';

export const pb = xiangqi.v1;
export type ServerMessage = xiangqi.v1.ServerMessage;
export type ClientMessage = xiangqi.v1.ClientMessage.$Properties;
export type Snapshot = xiangqi.v1.Snapshot.$Properties;
export type ClockMsg = xiangqi.v1.Clock.$Properties;
export type PlayerInfo = xiangqi.v1.PlayerInfo.$Properties;
export type PlayerRating = xiangqi.v1.PlayerRating.$Properties;
export type Outcome = xiangqi.v1.Outcome.$Properties;
export type ChatLine = xiangqi.v1.ChatLine.$Properties;
export type RoomEvent = xiangqi.v1.RoomEvent.$Properties;
export type GameSummary = xiangqi.v1.GameSummary.$Properties;
export type ArchiveEntry = xiangqi.v1.ArchiveEntry.$Properties;
export type ArchivedGame = xiangqi.v1.ArchivedGame.$Properties;
export type TimeControl = xiangqi.v1.TimeControl.$Properties;

export const encodeClient = (m: ClientMessage): Uint8Array => pb.ClientMessage.encode(m).finish();
export const decodeServer = (bytes: Uint8Array): ServerMessage => pb.ServerMessage.decode(bytes);
export const encodeServer = (m: xiangqi.v1.ServerMessage.$Properties): Uint8Array => pb.ServerMessage.encode(m).finish();
