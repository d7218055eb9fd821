"""Sign up, log in, log out and change password (Django auth, username and password)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from blitz_site.models import PasswordChangeFailure
from blitz_site.signals import password_changed
from blitz_site.text import StorableTextMixin


class SignupForm(StorableTextMixin, UserCreationForm):
    pass


class LoginForm(StorableTextMixin, AuthenticationForm):
    def clean(self):
        # AuthenticationForm sets the field's max_length but never checks it: a username no
        # account can have (and longer than the login limit's 255-character column) is a failed
        # login at once, never an attempt to store.
        username = self.cleaned_data.get("username") or ""
        if len(username) > self.fields["username"].max_length:
            raise self.get_invalid_login_error()
        return super().clean()


class LimitedPasswordChangeForm(StorableTextMixin, PasswordChangeForm):
    """At most ``LOGIN_FAILURE_LIMIT`` wrong old passwords per account in ``LOGIN_COOLOFF_MINUTES``
    (counted in the database, so across app servers); a refused try neither counts nor extends
    the wait, and the right old password clears the count."""

    def clean_old_password(self) -> str:
        now = timezone.now()
        failures = PasswordChangeFailure.objects.filter(user=self.user)
        failures.filter(at__lte=now - settings.AXES_COOLOFF_TIME).delete()
        # Counted before the check, so that tries sent at once cannot all get through.
        attempt = PasswordChangeFailure.objects.create(user=self.user)
        if failures.count() > settings.AXES_FAILURE_LIMIT:
            attempt.delete()
            minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
            raise ValidationError(
                f"Too many wrong passwords: wait {minutes} minutes and try again.",
                code="password_change_limit",
            )
        old_password = super().clean_old_password()  # a wrong one keeps its count
        failures.delete()
        return old_password


def safe_next(request: HttpRequest) -> str:
    """The page to return to after logging in or signing up, or "" when ``next`` is not one.

    Only a path on this site counts ("/armies/3/"): not an off-site or scheme-relative URL, not a
    bare word (which the browser would resolve against /accounts/login/), nothing with control
    characters (a NUL cannot go in a Location header).
    """
    target = request.POST.get("next") or request.GET.get("next") or ""
    if (
        target.startswith("/")
        and not target.startswith(("//", "/\\"))
        and target.isprintable()
        and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    ):
        return target
    return ""


def _next_url(request: HttpRequest) -> str:
    return safe_next(request) or reverse_lazy("armies:roster-list")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("armies:roster-list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, f"Welcome, {user.username}. Your rosters are now kept in your account."
        )
        return redirect(_next_url(request))
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True
    authentication_form = LoginForm

    def get_redirect_url(self) -> str:
        """``next`` when it is a page of this site (see safe_next), else "" (the default)."""
        return safe_next(self.request)

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, f"Logged in as {form.get_user().username}.")
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = LimitedPasswordChangeForm
    success_url = reverse_lazy("password-changed")

    def form_valid(self, form):
        password_changed.send(sender=self.__class__, request=self.request, user=form.user)
        return super().form_valid(form)  # saves it; this browser stays logged in


urlpatterns = [
    path("signup/", signup, name="signup"),
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        PasswordChangeView.as_view(),
        name="password-change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-changed",
    ),
]
