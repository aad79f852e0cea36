import { LoaderCircle, Store } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MANAGER_INVITE_MESSAGES } from '../../../shared/managers';
import { AuthHeading } from '../../components/auth-heading';
import { Button, buttonClass } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { IconTile } from '../../components/ui/icon-tile';
import { acceptInvite, previewInvite } from '../../features/managers';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { withNext } from '../../lib/redirect';

/** Where the link's code is kept while the visitor signs in or registers (this tab only). */
const STORAGE_KEY = 'super-mall:manager-invite';
const HERE = '/manage/invite';

function readStored(): string {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

function store(code: string | null): void {
  try {
    if (code) sessionStorage.setItem(STORAGE_KEY, code);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage refused (private mode): the code lives in this page only
  }
}

/** The code from the link's fragment (#code), else the one kept from an earlier visit of this tab. */
function initialCode(hash: string): string {
  const fromLink = decodeURIComponent(hash.replace(/^#/, '')).trim();
  if (fromLink) {
    store(fromLink);
    return fromLink;
  }
  return readStored();
}

type Preview =
  | { state: 'idle' | 'loading' }
  | { state: 'ready'; shopId: string; shopName: string }
  | {
      state: 'failed';
      message: string;
    };

/**
 * /manage/invite#<code>: the link an admin sends a shop's manager. The code travels in the fragment (no
 * server log or Referer sees it), is kept in sessionStorage while the visitor signs in or registers, and
 * leaves the address bar at once.
 */
export function InvitePage() {
  const { user, ready, refresh } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [code] = useState(() => initialCode(location.hash));
  const [preview, setPreview] = useState<Preview>({ state: 'idle' });
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState<string | null>(null);

  // the code leaves the address bar (and the history entry) once read
  useEffect(() => {
    if (location.hash)
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  const signedInUser = ready && user?.role === 'user';
  useEffect(() => {
    if (!signedInUser || !code) return;
    let cancelled = false;
    setPreview({ state: 'loading' });
    previewInvite(code).then(
      (shop) => {
        if (!cancelled) setPreview({ state: 'ready', ...shop });
      },
      (error: unknown) => {
        if (!cancelled) setPreview({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [signedInUser, code]);

  async function accept() {
    setAccepting(true);
    setAcceptError(null);
    try {
      const shop = await acceptInvite(code);
      store(null);
      // the session now names the shop: the My shops link and area open
      await refresh();
      const { toast } = await import('sonner');
      toast.success(`You now manage ${shop.shopName}`);
      await navigate(`/manage/shops/${shop.shopId}`, { replace: true });
    } catch (error) {
      setAcceptError(errorMessage(error));
      setAccepting(false);
    }
  }

  if (!code) {
    return (
      <InviteMessage title="Invitation link incomplete">
        <FormAlert message={MANAGER_INVITE_MESSAGES.invalid} />
      </InviteMessage>
    );
  }

  if (!ready) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-8 text-slate-600">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        Loading invitation…
      </p>
    );
  }

  if (!user) {
    return (
      <InviteMessage title="You're invited to manage a shop">
        <p className="text-sm text-slate-700">
          The mall office has invited you to keep a shop's page current on Super Mall: its details, opening
          hours, products and offers. Sign in, or create an account (Account Type User), and then accept the
          invitation.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to={withNext('/login', HERE)} className={buttonClass('primary', 'md', 'flex-1')}>
            Sign in
          </Link>
          <Link to={withNext('/register', HERE)} className={buttonClass('secondary', 'md', 'flex-1')}>
            Create an account
          </Link>
        </div>
      </InviteMessage>
    );
  }

  if (user.role === 'admin') {
    return (
      <InviteMessage title="Open this link with the shop's account">
        <FormAlert message={MANAGER_INVITE_MESSAGES.admin} />
        <Link to="/admin/dashboard" className={buttonClass('secondary')}>
          Go to the admin dashboard
        </Link>
      </InviteMessage>
    );
  }

  if (preview.state === 'failed') {
    return (
      <InviteMessage title="This invitation cannot be used">
        <FormAlert message={preview.message} />
        <Link to="/user/dashboard" className={buttonClass('secondary')}>
          Go to your dashboard
        </Link>
      </InviteMessage>
    );
  }

  if (preview.state !== 'ready') {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-8 text-slate-600">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        Loading invitation…
      </p>
    );
  }

  if (user.managedShopIds.includes(preview.shopId)) {
    return (
      <InviteMessage title={`You already manage ${preview.shopName}`}>
        <p className="text-sm text-slate-700">{MANAGER_INVITE_MESSAGES.already}</p>
        <Link to={`/manage/shops/${preview.shopId}`} className={buttonClass('primary')}>
          Open {preview.shopName}
        </Link>
      </InviteMessage>
    );
  }

  return (
    <InviteMessage title={`Manage ${preview.shopName}`}>
      <p className="text-sm text-slate-700">
        Accept to keep {preview.shopName}'s page current: its details, opening hours, products and offers.
        Offers go live after the mall office approves them. You are signed in as{' '}
        <span className="font-medium wrap-anywhere text-slate-900">{user.email}</span>.
      </p>
      <FormAlert message={acceptError} />
      <Button size="lg" className="w-full" onClick={accept} disabled={accepting}>
        {accepting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        {accepting ? 'Accepting…' : 'Accept invitation'}
      </Button>
    </InviteMessage>
  );
}

function InviteMessage({ title, children }: { title: string; children: React.ReactNode }) {
  usePageTitle(title);
  return (
    <div className="space-y-5">
      <div className="flex justify-center">
        <IconTile icon={Store} />
      </div>
      <AuthHeading title={title} subtitle="Shop manager invitation" />
      {children}
    </div>
  );
}
