/**
 * A game's chat room (docs/product.md, "Chat"): the lines said so far and a field to say one.
 * Every line is drawn as React text (a name and a text node), never as markup. The chat can be
 * folded away, and in the player room the opponent muted; both are remembered on this device.
 * The server's refusals (too fast, guest chat off) are shown under the field.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { CHAT, type ChatLine, type ChatRoom, type Color } from '../../../machines/protocol/messages';
import { shownPlayerName } from '../../../machines/client/playerName';
import { chatLine } from '../../../machines/client/spectator';
import { setPreferences, usePreferences } from '../app/preferences';
import { onMessage, trySend } from '../app/services';

export interface GameChatProps {
  gameId: string;
  room: ChatRoom;
  lines: readonly ChatLine[];
  /** in the player room: the reader's own colour (the other one can be muted) */
  myColor?: Color;
  /** why nothing can be written now (the game is over, ...), or null */
  closed?: string | null;
}

const ROOM_TITLES: Record<ChatRoom, string> = { player: 'Chat', spectator: 'Spectator room' };

export function GameChat({ gameId, room, lines, myColor, closed = null }: GameChatProps) {
  const { chatHidden, chatMuteOpponent } = usePreferences();
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(
    () => onMessage('error', (m) => {
      if (m.gameId === gameId && (m.code === 'chat_refused' || m.code === 'chat_rate_limited')) setRefusal(m.message);
    }),
    [gameId],
  );
  const muting = room === 'player' && myColor !== undefined;
  const shown = muting && chatMuteOpponent ? lines.filter((l) => l.color === myColor) : lines;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const said = text.trim();
    if (!said) return;
    setRefusal(null);
    if (trySend({ type: 'chatSend', payload: { gameId, room, text: said } })) setText('');
    else setRefusal('Not connected: the message was not sent.');
  };
  return (
    <section className="game-chat" data-testid={`chat-${room}`} aria-label={ROOM_TITLES[room]}>
      <div className="game-chat-head">
        <h2>{ROOM_TITLES[room]}</h2>
        {muting && !chatHidden && (
          <button type="button" className="btn btn-small" aria-pressed={chatMuteOpponent} onClick={() => setPreferences({ chatMuteOpponent: !chatMuteOpponent })}>
            {chatMuteOpponent ? 'Unmute opponent' : 'Mute opponent'}
          </button>
        )}
        <button type="button" className="btn btn-small" aria-expanded={!chatHidden} onClick={() => setPreferences({ chatHidden: !chatHidden })}>
          {chatHidden ? 'Show chat' : 'Hide chat'}
        </button>
      </div>
      {!chatHidden && (
        <>
          <ol className="chat-lines" aria-live="polite" data-testid="chat-lines">
            {shown.map((l, i) => (
              <li key={i} className={l.color ? `chat-${l.color}` : undefined}>
                <strong className="chat-author">{shownPlayerName(l.name, l.guest ?? false)}</strong> <span className="chat-text">{l.text}</span>
              </li>
            ))}
          </ol>
          {closed ? (
            <p className="info">{closed}</p>
          ) : (
            <form className="row" onSubmit={submit}>
              <label className="grow">
                <span className="sr-only">Message</span>
                <input value={text} maxLength={CHAT.maxLength} onChange={(e) => setText(e.target.value)} placeholder="Say something" data-testid="chat-input" />
              </label>
              <button type="submit" className="btn btn-small">Send</button>
            </form>
          )}
          {refusal && <p className="notice" role="status" data-testid="chat-refusal">{refusal}</p>}
        </>
      )}
    </section>
  );
}

/**
 * The player room of game `gameId` as this page follows it: the lines its `gameStart` gave
 * (`initial`, a rejoin's history), then every `chatMessage` of the room.
 */
export function usePlayerChat(gameId: string, initial: readonly ChatLine[]): ChatLine[] {
  const [lines, setLines] = useState<ChatLine[]>([...initial]);
  // a new game (a rematch on the same page) starts from its own lines
  useEffect(() => setLines([...initial]), [initial, gameId]);
  useEffect(
    () => onMessage('chatMessage', (m) => {
      if (m.gameId === gameId && m.room === 'player') setLines((ls) => [...ls, chatLine(m)]);
    }),
    [gameId],
  );
  return lines;
}
