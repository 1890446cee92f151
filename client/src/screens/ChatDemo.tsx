/** The chat demo route (it exists and is loaded on demand; its content is not specified). */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Page } from '../components/Page';

export default function ChatDemo() {
  const [lines, setLines] = useState<string[]>([]);
  const [text, setText] = useState('');
  return (
    <Page narrow>
      <section className="card">
        <h1>Chat Demo</h1>
        <p>A local demo: messages stay in this tab.</p>
        <ul className="chat-lines" aria-live="polite">{lines.map((l, i) => <li key={i}>{l}</li>)}</ul>
        <form onSubmit={(e) => { e.preventDefault(); if (text.trim()) { setLines([...lines, text.trim()]); setText(''); } }} className="row">
          <label className="grow">
            <span className="sr-only">Message</span>
            <input value={text} onChange={(e) => setText(e.target.value)} placeholder="Say hello" />
          </label>
          <button className="btn btn-primary" type="submit">Send</button>
        </form>
        <p className="links"><Link to="/">Back to Home</Link></p>
      </section>
    </Page>
  );
}
