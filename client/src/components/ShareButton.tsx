/** Share: copies the page's address (a game's /game/:id) so it can be sent to anyone. */
import { useState } from 'react';

export function ShareButton() {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const share = () => {
    const address = location.href;
    (navigator.clipboard ? navigator.clipboard.writeText(address) : Promise.reject(new Error('no clipboard'))).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <button type="button" className="btn btn-small" onClick={share} data-testid="share-game"
      title={copied === 'failed' ? location.href : 'Copy the address of this game'}>
      {copied === 'yes' ? 'Copied' : 'Share'}
    </button>
  );
}
