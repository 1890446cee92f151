import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { RequireIdentity } from './components/RequireIdentity';
import { Spinner } from './components/Spinner';
import { Home } from './screens/Home';
import { GuestEntry } from './screens/GuestEntry';
import { GameModes } from './screens/GameModes';

const Login = lazy(() => import('./screens/auth/Login'));
const Register = lazy(() => import('./screens/auth/Register'));
const ForgotPassword = lazy(() => import('./screens/auth/ForgotPassword'));
const ResetPassword = lazy(() => import('./screens/auth/ResetPassword'));
const AuthCallback = lazy(() => import('./screens/auth/AuthCallback'));
const ProfileSetup = lazy(() => import('./screens/auth/ProfileSetup'));
const NotificationPermission = lazy(() => import('./screens/NotificationPermission'));
const ChatDemo = lazy(() => import('./screens/ChatDemo'));
const Multiplayer = lazy(() => import('./screens/chess/Multiplayer'));
const AiGame = lazy(() => import('./screens/chess/AiGame'));
const LocalGame = lazy(() => import('./screens/chess/LocalGame'));
const Stats = lazy(() => import('./screens/chess/Stats'));
const Profile = lazy(() => import('./screens/archive/Profile'));
const Leaderboard = lazy(() => import('./screens/archive/Leaderboard'));
const GamePage = lazy(() => import('./screens/game/GamePage'));
const Settings = lazy(() => import('./screens/Settings'));
const ChallengePage = lazy(() => import('./screens/challenge/ChallengePage'));
const LiveGames = lazy(() => import('./screens/watch/LiveGames'));
const Tv = lazy(() => import('./screens/watch/Tv'));

const guarded = (el: ReactNode) => <RequireIdentity>{el}</RequireIdentity>;

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route path="/" element={<Home />} />
          <Route path="/guest" element={<GuestEntry />} />
          <Route path="/login" element={<Login />} />
          <Route path="/register" element={<Register />} />
          <Route path="/forgot-password" element={<ForgotPassword />} />
          <Route path="/reset-password" element={<ResetPassword />} />
          <Route path="/auth/callback" element={<AuthCallback />} />
          <Route path="/chat-demo" element={<ChatDemo />} />
          <Route path="/chess" element={guarded(<GameModes />)} />
          <Route path="/chess/multiplayer" element={guarded(<Multiplayer />)} />
          <Route path="/chess/ai" element={guarded(<AiGame />)} />
          <Route path="/chess/local" element={guarded(<LocalGame />)} />
          <Route path="/chess/stats" element={guarded(<Stats />)} />
          <Route path="/@/:username" element={<Profile />} />
          <Route path="/leaderboard" element={<Leaderboard />} />
          <Route path="/game/:id" element={<GamePage />} />
          <Route path="/settings" element={<Settings />} />
          <Route path="/challenge/:id" element={guarded(<ChallengePage />)} />
          <Route path="/games" element={<LiveGames />} />
          <Route path="/tv" element={<Tv />} />
          <Route path="/profile-setup" element={guarded(<ProfileSetup />)} />
          <Route path="/notifications" element={guarded(<NotificationPermission />)} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
